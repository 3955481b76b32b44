/**
 * The CRM host's published entities (/work/shared/spec/crm-endpoints.md) as rows of the sandbox's
 * entity table (entityTable.ts): paths, list keys, body fields (`*`: required) and seed records.
 */
import type { EntityDef, EntityOp } from './entityTable';
import type { JsonObject } from './types';

const ALL: readonly EntityOp[] = ['list', 'get', 'create', 'update', 'delete'];
const SEED_AT = '2024-01-01T00:00:00.000Z';

const APPOINTMENT =
	'personId* userId appointmentTypeId* appointmentOutcomeId title* description location* ' +
	'isAllDay:boolean startsAt:any endsAt:any';
const TEXT =
	'personId* userId message* externalLabel externalUrl isIncoming*:boolean toNumber fromNumber';
const EVENT =
	'personId noteId propertyId message description source system type pageTitle pageUrl ' +
	'pageReferrer pageDuration:number occurredAt';

const crm = (
	path: string,
	listKey: string,
	noun: string,
	idPrefix: string,
	create: string | undefined,
	seed: (n: number) => JsonObject,
	extra: Partial<EntityDef> = {},
): EntityDef => ({ host: 'crm', path, listKey, noun, idPrefix, ops: ALL, create, seed, ...extra });

const person = (n: number): string => `p_${n}`;

export const CRM_ENTITIES: readonly EntityDef[] = [
	crm('notes', 'notes', 'note', 'note', 'personId* subject body isHtml:boolean', (n) => ({
		personId: person(n),
		subject: `Call back ${n}`,
		body: `Asked for a call back (seeded note ${n})`,
		isHtml: false,
	})),
	crm(
		'users',
		'users',
		'user',
		'user',
		'email* firstName* lastName* phone* role* status* timezone username* type* address*:object ' +
			'participatingOfficeIds:stringArray password',
		(n) => ({
			firstName: ['Alex', 'Bo', 'Cy'][n % 3],
			// The big seed's further users get names of their own, so a picker can tell them apart.
			lastName:
				n <= 3 ? 'Agent' : ['Agent', 'Baker', 'Cruz', 'Dunn', 'Ellis', 'Ford', 'Grant'][n % 7],
			email: `agent${n}@example.test`,
			phone: `+1555000000${n}`,
			role: 'Agent',
			status: 'Active',
			timezone: 'America/Chicago',
			username: `agent${n}`,
			type: 'user',
			teamId: null,
			address: null,
			offices: [],
		}),
		{
			update:
				'email firstName lastName phone role status timezone username participatingOfficeIds:stringArray',
		},
	),
	crm(
		'tasks',
		'tasks',
		'task',
		'task',
		'personId* name type assignedUserId isCompleted:boolean dueDateTime',
		(n) => ({
			personId: person(n),
			name: `Follow up ${n}`,
			type: 'Call',
			assignedUserId: 'user-seed-1',
			dueDateTime: `2024-02-0${n}T15:00:00.000Z`,
			isCompleted: false,
		}),
	),
	crm(
		'smart-lists',
		'smart-lists',
		'smart list',
		'smart-list',
		'name* description isFub2:boolean shared:boolean userId conditions*:any sortBy ' +
			'columns:objectArray sharedWith:object',
		(n) => ({
			name: `Hot leads ${n}`,
			description: 'Seeded smart list',
			isFub2: false,
			shared: true,
			userId: null,
			conditions: [[{ fld: 'stage', opr: 'is', num: null, unit: '', val: 'Lead' }]],
			sortBy: 'created',
			columns: [],
			sharedWith: { userIds: [], teamIds: [] },
		}),
	),
	crm(
		'calls',
		'calls',
		'call',
		'call',
		'personId* userId phone* note isIncoming*:boolean outcome duration:number toNumber ' +
			'fromNumber recordingUrl',
		(n) => ({
			personId: person(n),
			userId: 'user-seed-1',
			phone: `+1555100000${n}`,
			note: 'Left a voicemail',
			isIncoming: false,
			outcome: 'No Answer',
			duration: 30 * n,
			toNumber: null,
			fromNumber: null,
			recordingUrl: null,
		}),
	),
	crm('teams', 'teams', 'team', 'team', 'email name* address phone city zip', (n) => ({
		original: { name: `Team ${n}` },
	})),
	crm(
		'textMessages',
		'textmessages',
		'text message',
		'text-message',
		TEXT,
		(n) => ({
			personId: person(n),
			userId: 'user-seed-1',
			message: `Seeded text ${n}`,
			isIncoming: n % 2 === 0,
			status: 'Sent',
			toNumber: '+15550001111',
			fromNumber: '+15550002222',
			externalLabel: null,
			externalUrl: null,
			sent: SEED_AT,
		}),
		{ update: `${TEXT.replace(/\*/g, '')} status sent:any` },
	),
	crm(
		'emailMessages',
		'emailmessages',
		'email message',
		'email-message',
		'personId userId subject* body* sender*:object recipients*:objectArray threadId',
		(n) => ({
			personId: person(n),
			userId: 'user-seed-1',
			threadId: null,
			subject: `Seeded email ${n}`,
			body: 'Hello',
			sender: { name: 'Agent', email: 'agent1@example.test' },
			recipients: [{ name: 'Client', email: `client${n}@example.test` }],
			isRead: false,
			isStarred: false,
			isIncoming: false,
			sent: SEED_AT,
			received: null,
		}),
		{ ops: ['list', 'get', 'create'] },
	),
	crm('appointments', 'appointments', 'appointment', 'appointment', APPOINTMENT, (n) => ({
		personId: person(n),
		userId: 'user-seed-1',
		title: `Showing ${n}`,
		description: 'Seeded appointment',
		location: `${n} Oak St`,
		isAllDay: false,
		type: 'Showing',
		startsAt: `2024-03-0${n}T15:00:00.000Z`,
		endsAt: `2024-03-0${n}T16:00:00.000Z`,
	})),
	crm(
		'appointment-types',
		'appointment-types',
		'appointment type',
		'appointment-type',
		'name* orderWeight*:number',
		(n) => ({ name: ['Showing', 'Listing', 'Closing'][n % 3], orderWeight: n }),
	),
	crm(
		'appointment-outcomes',
		'appointment-outcomes',
		'appointment outcome',
		'appointment-outcome',
		'name* orderWeight*:number',
		(n) => ({ name: ['Met', 'No show', 'Rescheduled'][n % 3], orderWeight: n }),
	),
	crm('lists', 'lists', 'list', 'list', 'name description isFavorite:boolean', (n) => ({
		name: `List ${n}`,
		description: 'Seeded list',
		isFavorite: n === 1,
		peopleParticipantIds: [person(n)],
	})),
	// The published description shows no body fields for custom fields: any JSON object.
	crm('customFields', 'customfields', 'custom field', 'custom-field', undefined, (n) => ({
		type: 'text',
		label: `Custom ${n}`,
		name: `custom${n}`,
	})),
	crm('events', 'events', 'event', 'event', EVENT, (n) => ({
		personId: person(n),
		noteId: null,
		propertyId: null,
		occurredAt: SEED_AT,
		message: `Viewed listing ${n}`,
		description: '',
		source: 'Website',
		system: 'crm',
		type: 'Viewed Property',
		pageTitle: '',
		pageUrl: '',
		pageReferrer: '',
		pageDuration: null,
	})),
];
