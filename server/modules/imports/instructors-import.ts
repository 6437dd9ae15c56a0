import { ROLE_LABELS } from '../../../common/roles.ts';
import { instructorProfiles, users as userTable } from '../../db/schema/index.ts';
import { upsertRows } from '../../db/bulk-upsert.ts';
import { isInstructor } from '../access/service.ts';
import { allRows, copiedColumns, flagDuplicates, keysOf, syncDateColumn, type ImportHandler } from './handler.ts';
import { linkUsersToSisIds, selectProfilesByEmployeeId, selectUsersByKeys } from './queries.ts';

const PROFILE = [
  ['phone', instructorProfiles.phone, 'text'],
  ['department', instructorProfiles.department, 'text'],
  ['qualifications', instructorProfiles.qualifications, 'text'],
  ['hireDate', instructorProfiles.hireDate, 'date'],
  ['salary', instructorProfiles.salary, 'numeric'],
  ['officeLocation', instructorProfiles.officeLocation, 'text'],
  ['bio', instructorProfiles.bio, 'text'],
  ['specializations', instructorProfiles.specializations, 'text'],
  ['certifications', instructorProfiles.certifications, 'text'],
  ['employmentType', instructorProfiles.employmentType, 'text'],
  ['externalInstructorId', instructorProfiles.externalInstructorId, 'text'],
  ['employeeId', instructorProfiles.employeeId, 'text'],
  ['licenseNumber', instructorProfiles.licenseNumber, 'text'],
] as const;

type UserRow = Awaited<ReturnType<typeof selectUsersByKeys>>[number];

/**
 * Instructors become users with the Instructor role (login = e-mail, no password: a set-password
 * link from User Management or single sign-on) plus an instructor profile. Matched by sisUserId;
 * an existing instructor account with the same e-mail and no SIS id is linked, never duplicated.
 * Another role's account is never turned into an instructor by a file.
 */
export const planInstructors: ImportHandler = async ({ tx, sheet, problems, timeZone }) => {
  const keys = keysOf(sheet, problems, 'sisUserId');
  flagDuplicates(sheet, problems, 'email', (v) => v.toLowerCase());
  flagDuplicates(sheet, problems, 'username', (v) => v.toLowerCase());
  flagDuplicates(sheet, problems, 'employeeId');

  const col = (name: string) =>
    allRows(sheet)
      .map((i) => sheet.text(name, i))
      .filter((v): v is string => v != null);
  const emails = col('email').map((e) => e.toLowerCase());
  const usernames = col('username').map((u) => u.toLowerCase());
  const users = await selectUsersByKeys(
    tx,
    keys.filter((k) => k != null),
    emails,
    usernames,
  );
  const bySis = new Map(users.filter((u) => u.sisUserId != null).map((u) => [u.sisUserId!, u]));
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const byUsername = new Map(users.filter((u) => u.username != null).map((u) => [u.username!.toLowerCase(), u]));
  const employees = await selectProfilesByEmployeeId(tx, col('employeeId'));
  const byEmployeeId = new Map(employees.map((e) => [e.employeeId!, e.userId]));

  /** The existing account each row updates (null: a new one). */
  const target: (UserRow | null)[] = new Array(sheet.size).fill(null);
  const toLink: { id: number; sis: string }[] = [];
  let created = 0;
  let updated = 0;
  for (let i = 0; i < sheet.size; i++) {
    const row = sheet.row(i);
    const key = keys[i];
    const email = sheet.text('email', i);
    if (key == null) continue;
    const sisUser = bySis.get(key);
    const emailUser = email ? byEmail.get(email.toLowerCase()) : undefined;
    let t: UserRow | null = null;
    if (sisUser) {
      if (!isInstructor(sisUser)) {
        problems.add(row, 'sisUserId', `sisUserId ${key} belongs to a ${ROLE_LABELS[sisUser.role]} account; only instructors are imported`, key);
        continue;
      }
      if (emailUser && emailUser.id !== sisUser.id) {
        problems.add(row, 'email', `${email} is the login of another user`, email);
        continue;
      }
      t = sisUser;
    } else if (emailUser) {
      if (!isInstructor(emailUser)) {
        problems.add(row, 'email', `${email} is the login of a ${ROLE_LABELS[emailUser.role]} account; only instructors are imported`, email);
        continue;
      }
      if (emailUser.sisUserId != null) {
        problems.add(row, 'email', `${email} is the login of the instructor with SIS user ID ${emailUser.sisUserId}`, email);
        continue;
      }
      t = emailUser;
      toLink.push({ id: emailUser.id, sis: key });
    }
    const username = sheet.text('username', i);
    const nameOwner = username ? byUsername.get(username.toLowerCase()) : undefined;
    if (nameOwner && nameOwner.id !== t?.id) problems.add(row, 'username', `Username ${username} is taken by another user`, username);
    const employeeId = sheet.text('employeeId', i);
    const employeeOwner = employeeId ? byEmployeeId.get(employeeId) : undefined;
    if (employeeOwner !== undefined && employeeOwner !== t?.id)
      problems.add(row, 'employeeId', `employeeId ${employeeId} belongs to another instructor`, employeeId);
    target[i] = t;
    if (t) updated += 1;
    else created += 1;
  }

  return {
    created,
    updated,
    write: async (w) => {
      if (toLink.length > 0) {
        await linkUsersToSisIds(w, toLink);
      }
      const written = await upsertRows(w, {
        table: userTable,
        conflict: userTable.sisUserId,
        columns: [
          ...copiedColumns(sheet, [
            ['sisUserId', userTable.sisUserId, 'text'],
            ['email', userTable.email, 'text'],
            ['firstName', userTable.firstName, 'text'],
            ['lastName', userTable.lastName, 'text'],
            ['username', userTable.username, 'text'],
          ]),
          { db: userTable.role, type: 'text', value: () => 'instructor', update: false },
        ],
        rows: allRows(sheet),
        returning: { id: userTable.id, sisUserId: userTable.sisUserId },
      });
      const idBySis = new Map(written.map((r) => [r.sisUserId!, r.id]));
      await upsertRows(w, {
        table: instructorProfiles,
        conflict: instructorProfiles.userId,
        columns: [
          { db: instructorProfiles.userId, type: 'int', value: (i) => idBySis.get(keys[i]!) },
          ...copiedColumns(sheet, PROFILE),
          ...syncDateColumn(sheet, timeZone, instructorProfiles.lastSyncDate),
        ],
        rows: allRows(sheet),
        returning: { userId: instructorProfiles.userId },
      });
    },
  };
};
