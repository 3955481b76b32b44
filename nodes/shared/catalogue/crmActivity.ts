import {
	crmResource,
	field,
	NAME_AND_EMAIL,
	personIdField,
	simpleForm,
	timeField,
	userIdField,
} from './entry';
import type { FieldSpec, ResourceSpec } from './types';

/** The CRM's activity around a person (crm-endpoints.md); `required` is what it marks so on create. */
const orderWeight = (what: string): FieldSpec =>
	field(
		'orderWeight',
		'Order Weight',
		'number',
		`Position of the ${what} in the CRM's lists (lower comes first)`,
		{ required: true },
	);
const phoneNumber = (
	name: string,
	label: string,
	what: string,
	extra: Partial<FieldSpec> = {},
): FieldSpec =>
	field(name, label, 'string', `${what}, as text passed through unchanged`, {
		placeholder: 'e.g. +15551234567',
		...extra,
	});
const incoming = (what: string): FieldSpec =>
	field(
		'isIncoming',
		'Is Incoming',
		'boolean',
		`Whether the ${what} came in from the person (off: the agent made it)`,
		{ required: true },
	);

export const noteResource = crmResource(
	'notes',
	'A note on a person in the connected CRM',
	[
		field('body', 'Body', 'string', "The note's text", {
			placeholder: 'e.g. Called back, wants a showing',
		}),
		field('isHtml', 'Is HTML', 'boolean', 'Whether Body is HTML rather than plain text'),
		personIdField(true, 'the note is about'),
		field('subject', 'Subject', 'string', "The note's subject line"),
	],
	{
		syncOptIn: 'notes',
		simple: simpleForm('subject', 'body', 'personId'),
		upFront: ['body', 'subject'],
	},
);

export const taskResource = crmResource(
	'tasks',
	'A to-do for an agent, about a person, in the connected CRM',
	[
		field(
			'assignedUserId',
			'Assigned User ID',
			'string',
			'ID, in the connected CRM, of the user (agent) who should do the task',
			{ refersTo: 'user' },
		),
		timeField('dueDateTime', 'Due Date Time', 'When the task is due'),
		field('isCompleted', 'Is Completed', 'boolean', 'Whether the task is done'),
		field('name', 'Name', 'string', 'What the agent should do, in a few words', {
			placeholder: 'e.g. Call back about the offer',
		}),
		personIdField(true, 'the task is about'),
		field(
			'type',
			'Type',
			'string',
			'Kind of task as the CRM names it (e.g. Call, Email, Follow Up), passed through unchanged',
		),
	],
	{
		syncOptIn: 'tasks',
		simple: simpleForm('name', 'type', 'personId', 'assignedUserId', 'dueDateTime', 'isCompleted'),
		upFront: ['name', 'dueDateTime', 'assignedUserId'],
	},
);

export const appointmentResource = crmResource(
	'appointments',
	'A meeting with a person (showing, listing appointment, ...) in the connected CRM',
	[
		field(
			'appointmentOutcomeId',
			'Appointment Outcome ID',
			'string',
			'ID of how the appointment went (see Appointment Outcome › Get Many)',
			{ refersTo: 'appointmentOutcome' },
		),
		field(
			'appointmentTypeId',
			'Appointment Type ID',
			'string',
			'ID of the kind of appointment (see Appointment Type › Get Many)',
			{ required: true, refersTo: 'appointmentType' },
		),
		field('description', 'Description', 'string', 'Details of the appointment'),
		timeField('endsAt', 'Ends At', 'When the appointment ends'),
		field('isAllDay', 'Is All Day', 'boolean', 'Whether the appointment takes the whole day'),
		field('location', 'Location', 'string', 'Where the appointment takes place', {
			required: true,
		}),
		personIdField(true, 'the appointment is with'),
		timeField('startsAt', 'Starts At', 'When the appointment starts'),
		field('title', 'Title', 'string', "The appointment's title", { required: true }),
		userIdField('who holds the appointment'),
	],
	{
		simple: simpleForm('title', 'personId', 'userId', 'startsAt', 'endsAt', 'location'),
		upFront: ['startsAt', 'endsAt', 'userId'],
	},
);

const appointmentKind = (kind: 'type' | 'outcome', description: string, example: string) =>
	crmResource(
		`appointment-${kind}s`,
		description,
		[
			field('name', 'Name', 'string', `The ${kind}'s name`, {
				required: true,
				placeholder: `e.g. ${example}`,
			}),
			orderWeight(kind),
		],
		{ simple: simpleForm('name', 'orderWeight') },
	);

export const [appointmentTypeResource, appointmentOutcomeResource] = [
	appointmentKind(
		'type',
		'A kind of appointment (e.g. Showing) the connected CRM offers',
		'Showing',
	),
	appointmentKind(
		'outcome',
		'A way an appointment can end (e.g. Met, No Show) in the connected CRM',
		'No Show',
	),
];

export const eventResource = crmResource(
	'events',
	"Something a person did (e.g. viewed a listing, filled a form), on the person's timeline in the connected CRM",
	[
		field('description', 'Description', 'string', 'Details of the event'),
		field('message', 'Message', 'string', 'What the person wrote or asked, if anything'),
		field('noteId', 'Note ID', 'string', 'ID of a note the event belongs to', { refersTo: 'note' }),
		timeField('occurredAt', 'Occurred At', 'When the event happened'),
		field('pageDuration', 'Page Duration', 'number', 'Seconds the person spent on the page'),
		field(
			'pageReferrer',
			'Page Referrer',
			'string',
			'Address of the page that led the person there',
		),
		field('pageTitle', 'Page Title', 'string', 'Title of the page the event happened on'),
		field('pageUrl', 'Page URL', 'string', 'Address of the page the event happened on'),
		personIdField(false, 'the event is about'),
		field('propertyId', 'Property ID', 'string', 'ID of the property (listing) the event is about'),
		field('source', 'Source', 'string', 'Where the event comes from (e.g. a website name)'),
		field('system', 'System', 'string', 'Name of the system that reports the event'),
		field(
			'type',
			'Type',
			'string',
			'Kind of event as the CRM names it (e.g. Viewed Property, Registration), passed through unchanged',
		),
	],
	{
		simple: simpleForm('type', 'personId', 'message', 'source', 'occurredAt'),
		upFront: ['type', 'personId', 'occurredAt', 'description'],
	},
);

export const callResource = crmResource(
	'calls',
	'A phone call with a person, logged in the connected CRM',
	[
		field('duration', 'Duration', 'number', 'Length of the call in seconds'),
		phoneNumber('fromNumber', 'From Number', 'Number the call came from'),
		incoming('call'),
		field('note', 'Note', 'string', 'What was said'),
		field(
			'outcome',
			'Outcome',
			'string',
			'How the call ended as the CRM names it (e.g. Interested, No Answer)',
		),
		personIdField(true, 'the call was with'),
		phoneNumber('phone', 'Phone', "The person's number on the call", { required: true }),
		field('recordingUrl', 'Recording URL', 'string', 'Address of the call recording'),
		phoneNumber('toNumber', 'To Number', 'Number that was called'),
		userIdField('who made or took the call'),
	],
	{
		syncOptIn: 'calls',
		simple: simpleForm('personId', 'userId', 'phone', 'isIncoming', 'outcome', 'duration'),
		upFront: ['note', 'outcome', 'duration', 'userId'],
	},
);

export const textMessageResource = crmResource(
	'textMessages',
	'A text message (SMS) with a person, logged in the connected CRM',
	[
		field(
			'externalLabel',
			'External Label',
			'string',
			'Label of a link to the message in another system',
		),
		field('externalUrl', 'External URL', 'string', 'Address of the message in another system'),
		phoneNumber('fromNumber', 'From Number', 'Number the message came from'),
		incoming('message'),
		field('message', 'Message', 'string', "The message's text", { required: true }),
		personIdField(true, 'the message was with'),
		timeField('sent', 'Sent', 'When the message was sent', { only: 'update' }),
		field('status', 'Status', 'string', "The message's delivery status as the CRM names it", {
			only: 'update',
		}),
		phoneNumber('toNumber', 'To Number', 'Number the message went to'),
		userIdField('who sent or received the message'),
	],
	{
		simple: simpleForm('personId', 'userId', 'message', 'isIncoming', 'status', 'sent'),
		upFront: ['toNumber', 'fromNumber', 'userId'],
	},
);

export const emailMessageResource = crmResource(
	'emailMessages',
	'An email with a person, logged in the connected CRM',
	[
		field('body', 'Body', 'string', "The email's text", { required: true }),
		personIdField(false, 'the email was with'),
		field(
			'recipients',
			'Recipients',
			'objectList',
			'Who the email went to: a name and an email address each',
			{ required: true, placeholder: 'Add Recipient', items: NAME_AND_EMAIL },
		),
		field(
			'sender',
			'Sender',
			'json',
			'Who sent the email, as a JSON object with name and email, e.g. {"name": "Ann Agent", "email": "ann@example.com"}',
			{ required: true },
		),
		field('subject', 'Subject', 'string', "The email's subject line", { required: true }),
		field('threadId', 'Thread ID', 'string', 'ID of the conversation the email belongs to'),
		userIdField('who sent or received the email'),
	],
	{
		operations: ['create', 'get', 'getAll'],
		readKeys: ['sent', 'received', 'isIncoming', 'isRead', 'isStarred'],
		simple: simpleForm('personId', 'userId', 'subject', 'sender', 'isIncoming', 'sent'),
		upFront: ['personId', 'userId'],
	},
);

export const CRM_ACTIVITY: readonly ResourceSpec[] = [
	noteResource,
	taskResource,
	appointmentResource,
	appointmentTypeResource,
	appointmentOutcomeResource,
	eventResource,
	callResource,
	textMessageResource,
	emailMessageResource,
];
