import {
	customFieldResource,
	listResource,
	smartListResource,
	teamResource,
	userResource,
} from './crmAccount';
import {
	appointmentOutcomeResource,
	appointmentResource,
	appointmentTypeResource,
	callResource,
	emailMessageResource,
	eventResource,
	noteResource,
	taskResource,
	textMessageResource,
} from './crmActivity';
import { crmWebhookResource } from './crmWebhook';
import { calendarEventResource, calendarResource, loanResource } from './loanFile';
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
	synced('appointments', appointmentResource),
	synced('borrowers', borrowerResource),
	synced('calls', callResource),
	synced('calendars', calendarResource),
	synced('calendarEvents', calendarEventResource),
	synced('customFields', customFieldResource),
	synced('events', eventResource),
	synced('lists', listResource),
	synced('loans', loanResource),
	synced('notes', noteResource),
	synced('offices'),
	synced('properties'),
	synced('smartLists', smartListResource),
	synced('tasks', taskResource),
	synced('taskTemplates'),
	synced('teams', teamResource),
	synced('textMessages', textMessageResource),
	synced('emailMessages', emailMessageResource),
	synced('appointmentOutcomes', appointmentOutcomeResource),
	synced('appointmentTypes', appointmentTypeResource),
	synced('stages'),
	synced('emailThreads'),
	synced('documents', documentResource),
	synced('sources'),
	synced('timeframes'),
	synced('peopleRelationships'),
	synced('ponds'),
	{ kind: 'users', syncFlag: false, events: false, resource: userResource },
	{ kind: 'webhooks', syncFlag: false, events: false, resource: crmWebhookResource },
];
