import * as account from './crmAccount';
import * as activity from './crmActivity';
import * as loanFile from './loanFile';
import { borrowerResource, documentResource } from './losRecords';
import { personResource } from './person';
import type { EntitySpec, ResourceSpec } from './types';

const synced = (kind: string, resource?: ResourceSpec): EntitySpec => ({
	kind,
	syncFlag: true,
	events: true,
	...(resource ? { resource } : {}),
});

/** People, then the 27 kinds of spec 2.3 in its order (the credential's flags, the trigger's events). */
export const ENTITIES: readonly EntitySpec[] = [
	{ kind: 'people', syncFlag: false, events: true, resource: personResource },
	synced('appointments', activity.appointmentResource),
	synced('borrowers', borrowerResource),
	synced('calls', activity.callResource),
	synced('calendars', loanFile.calendarResource),
	synced('calendarEvents', loanFile.calendarEventResource),
	synced('customFields', account.customFieldResource),
	synced('events', activity.eventResource),
	synced('lists', account.listResource),
	synced('loans', loanFile.loanResource),
	synced('notes', activity.noteResource),
	synced('offices'),
	synced('properties'),
	synced('smartLists', account.smartListResource),
	synced('tasks', activity.taskResource),
	synced('taskTemplates'),
	synced('teams', account.teamResource),
	synced('textMessages', activity.textMessageResource),
	synced('emailMessages', activity.emailMessageResource),
	synced('appointmentOutcomes', activity.appointmentOutcomeResource),
	synced('appointmentTypes', activity.appointmentTypeResource),
	synced('stages'),
	synced('emailThreads'),
	synced('documents', documentResource),
	synced('sources'),
	synced('timeframes'),
	synced('peopleRelationships'),
	synced('ponds'),
	{ kind: 'users', syncFlag: false, events: false, resource: account.userResource },
	{ kind: 'webhooks', syncFlag: false, events: false, resource: account.crmWebhookResource },
];
