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
import { calendarEventResource, calendarResource, DOCUMENT_ID, loanResource } from './loanFile';
import { BORROWER_FIELDS, DOCUMENT_FIELDS } from './losRecords';
import { personResource } from './person';
import { primary, simpleForm } from './entry';
import type { EntitySpec, ResourceSpec } from './types';

const borrowerResource: ResourceSpec = {
	value: 'borrower',
	label: 'Borrower',
	description: 'A borrower in the connected loan origination system',
	host: 'los',
	path: ['borrowers'],
	listKey: 'borrowers',
	id: { label: 'Borrower ID', name: 'borrowerId', placeholder: 'e.g. b-1' },
	noun: { one: 'borrower', many: 'borrowers' },
	section: 'loanAndCalendar',
	operations: ['create', 'delete', 'get', 'getAll', 'update'],
	defaultOperation: 'update',
	fields: BORROWER_FIELDS,
	upFront: ['name', 'emails', 'phones', 'loanId'],
	simple: simpleForm('name', 'type', primary('email', 'emails'), primary('phone', 'phones')),
};

const documentResource: ResourceSpec = {
	value: 'document',
	label: 'Document',
	description: 'A loan document in the connected loan origination system',
	host: 'los',
	path: ['documents'],
	listKey: 'documents',
	id: DOCUMENT_ID,
	noun: { one: 'document', many: 'documents' },
	section: 'loanAndCalendar',
	operations: ['create', 'delete', 'get', 'getAll', 'update'],
	defaultOperation: 'create',
	fields: DOCUMENT_FIELDS,
	upFront: ['loanId', 'borrowerId'],
	simple: simpleForm('name', 'category', 'type', 'status', 'loanId', 'borrowerId'),
};

/** A kind the connection synchronises and the trigger raises events for; no resource of the node yet. */
const synced = (kind: string, resource?: ResourceSpec): EntitySpec => ({
	kind,
	syncFlag: true,
	events: true,
	...(resource ? { resource } : {}),
});

/**
 * People, then the 27 entity kinds of spec 2.3 in the specification's order (the order of the
 * credential's flags and the trigger's events).
 */
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
	// The CRM's users (crm-endpoints.md): neither synced nor raising events.
	{ kind: 'users', syncFlag: false, events: false, resource: userResource },
	// The CRM host's webhook registrations (crm-endpoints.md): neither synced nor raising events.
	{ kind: 'webhooks', syncFlag: false, events: false, resource: crmWebhookResource },
];
