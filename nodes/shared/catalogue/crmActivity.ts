import {
	crmId,
	crmResource,
	flag,
	json,
	NAME_AND_EMAIL,
	number,
	objectList,
	personIdField,
	simpleForm,
	text,
	timeField,
	userIdField,
} from './entry';
import type { FieldSpec } from './types';

/** The CRM's activity around a person (crm-endpoints.md); `required` is what it marks so on create. */
const orderWeight = (what: string): FieldSpec =>
	number('orderWeight', `Position of the ${what} in the CRM's lists (lower comes first)`, {
		required: true,
	});
const phoneNumber = (name: string, what: string, extra: Partial<FieldSpec> = {}): FieldSpec =>
	text(name, `${what}, as text passed through unchanged`, {
		placeholder: 'e.g. +15551234567',
		...extra,
	});
const incoming = (what: string): FieldSpec =>
	flag('isIncoming', `Whether the ${what} came in from the person (off: the agent made it)`, {
		required: true,
	});

export const noteResource = crmResource(
	'notes',
	'A note on a person in the connected CRM',
	[
		text('body', "The note's text", { placeholder: 'e.g. Called back, wants a showing' }),
		flag('isHtml', 'Whether Body is HTML rather than plain text'),
		personIdField(true, 'the note is about'),
		text('subject', "The note's subject line"),
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
		crmId('assignedUserId', 'the user (agent) who should do the task', { refersTo: 'user' }),
		timeField('dueDateTime', 'When the task is due'),
		flag('isCompleted', 'Whether the task is done'),
		text('name', 'What the agent should do, in a few words', {
			placeholder: 'e.g. Call back about the offer',
		}),
		personIdField(true, 'the task is about'),
		text(
			'type',
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
		text(
			'appointmentOutcomeId',
			'ID of how the appointment went (see Appointment Outcome › Get Many)',
			{ refersTo: 'appointmentOutcome' },
		),
		text('appointmentTypeId', 'ID of the kind of appointment (see Appointment Type › Get Many)', {
			required: true,
			refersTo: 'appointmentType',
		}),
		text('description', 'Details of the appointment'),
		timeField('endsAt', 'When the appointment ends'),
		flag('isAllDay', 'Whether the appointment takes the whole day'),
		text('location', 'Where the appointment takes place', { required: true }),
		personIdField(true, 'the appointment is with'),
		timeField('startsAt', 'When the appointment starts'),
		text('title', "The appointment's title", { required: true }),
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
			text('name', `The ${kind}'s name`, { required: true, placeholder: `e.g. ${example}` }),
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
		text('description', 'Details of the event'),
		text('message', 'What the person wrote or asked, if anything'),
		text('noteId', 'ID of a note the event belongs to', { refersTo: 'note' }),
		timeField('occurredAt', 'When the event happened'),
		number('pageDuration', 'Seconds the person spent on the page'),
		text('pageReferrer', 'Address of the page that led the person there'),
		text('pageTitle', 'Title of the page the event happened on'),
		text('pageUrl', 'Address of the page the event happened on'),
		personIdField(false, 'the event is about'),
		text('propertyId', 'ID of the property (listing) the event is about'),
		text('source', 'Where the event comes from (e.g. a website name)'),
		text('system', 'Name of the system that reports the event'),
		text(
			'type',
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
		number('duration', 'Length of the call in seconds'),
		phoneNumber('fromNumber', 'Number the call came from'),
		incoming('call'),
		text('note', 'What was said'),
		text('outcome', 'How the call ended as the CRM names it (e.g. Interested, No Answer)'),
		personIdField(true, 'the call was with'),
		phoneNumber('phone', "The person's number on the call", { required: true }),
		text('recordingUrl', 'Address of the call recording'),
		phoneNumber('toNumber', 'Number that was called'),
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
		text('externalLabel', 'Label of a link to the message in another system'),
		text('externalUrl', 'Address of the message in another system'),
		phoneNumber('fromNumber', 'Number the message came from'),
		incoming('message'),
		text('message', "The message's text", { required: true }),
		personIdField(true, 'the message was with'),
		timeField('sent', 'When the message was sent', { only: 'update' }),
		text('status', "The message's delivery status as the CRM names it", { only: 'update' }),
		phoneNumber('toNumber', 'Number the message went to'),
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
		text('body', "The email's text", { required: true }),
		personIdField(false, 'the email was with'),
		objectList('recipients', 'Who the email went to: a name and an email address each', {
			required: true,
			placeholder: 'Add Recipient',
			items: NAME_AND_EMAIL,
		}),
		json(
			'sender',
			'Who sent the email, as a JSON object with name and email, e.g. {"name": "Ann Agent", "email": "ann@example.com"}',
			{ required: true },
		),
		text('subject', "The email's subject line", { required: true }),
		text('threadId', 'ID of the conversation the email belongs to'),
		userIdField('who sent or received the email'),
	],
	{
		operations: ['create', 'get', 'getAll'],
		readKeys: ['sent', 'received', 'isIncoming', 'isRead', 'isStarred'],
		simple: simpleForm('personId', 'userId', 'subject', 'sender', 'isIncoming', 'sent'),
		upFront: ['personId', 'userId'],
	},
);
