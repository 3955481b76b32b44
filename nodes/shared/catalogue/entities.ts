import { personResource } from './person';
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
	operations: ['update'],
};

const documentResource: ResourceSpec = {
	value: 'document',
	label: 'Document',
	description: 'A loan document in the connected loan origination system',
	host: 'los',
	path: ['documents'],
	listKey: 'documents',
	noun: { one: 'document', many: 'documents' },
	operations: ['create'],
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
	synced('appointments'),
	synced('borrowers', borrowerResource),
	synced('calls'),
	synced('calendars'),
	synced('calendarEvents'),
	synced('customFields'),
	synced('events'),
	synced('lists'),
	synced('loans'),
	synced('notes'),
	synced('offices'),
	synced('properties'),
	synced('smartLists'),
	synced('tasks'),
	synced('taskTemplates'),
	synced('teams'),
	synced('textMessages'),
	synced('emailMessages'),
	synced('appointmentOutcomes'),
	synced('appointmentTypes'),
	synced('stages'),
	synced('emailThreads'),
	synced('documents', documentResource),
	synced('sources'),
	synced('timeframes'),
	synced('peopleRelationships'),
	synced('ponds'),
];
