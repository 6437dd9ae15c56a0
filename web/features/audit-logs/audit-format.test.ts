import { describe, expect, it } from 'vitest';
import { fieldLabel, recordLabel, tableLabel } from './audit-format.ts';

// The Audit Logs page used to show table names and field names as stored ("students", "scanInTime").
describe('audit labels', () => {
  it('says what a table holds', () => {
    expect(tableLabel('students')).toBe('Student');
    expect(tableLabel('attendance')).toBe('Attendance record');
    expect(tableLabel('qr_sessions')).toBe('QR session');
    // A table added later still reads as words.
    expect(tableLabel('sis_exchange_files')).toBe('SIS exchange files');
  });

  it('says what a field is, nested settings as a path', () => {
    expect(fieldLabel('scanInTime')).toBe('Check-in time');
    expect(fieldLabel('studentId')).toBe('Student');
    expect(fieldLabel('notifications.weeklyReports')).toBe('Notifications › Weekly reports');
    expect(fieldLabel('attendance.qrCodeExpirationMinutes')).toBe('Attendance › QR code expiration minutes');
    expect(fieldLabel('make_up_threshold_minutes')).toBe('Make up threshold minutes');
  });

  it('names the record by its name when the server gave one, else by its id', () => {
    expect(recordLabel({ recordId: '214', recordName: 'Ana Lopez' })).toBe('Ana Lopez');
    expect(recordLabel({ recordId: '214', recordName: null })).toBe('#214');
    expect(recordLabel({ recordId: null, recordName: null })).toBeNull();
  });
});
