// The dashboard's schemas, loaded beside its first answers (decision 025): the dashboard draws
// without zod.
export { alertAcknowledgementSchema, analyticsSchema, executiveSummarySchema, gettingStartedSchema, realTimeSchema } from '../../../common/dashboard.ts';
export { complianceOverviewSchema } from '../../../common/compliance.ts';
