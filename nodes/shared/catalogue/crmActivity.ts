import {
	crmId,
	crmResource,
	fields,
	flag,
	json,
	number,
	objectList,
	simpleForm,
	text,
	timeField,
} from './entry';
import type { FieldDraft } from './types';

/** The CRM's activity around a person (crm-endpoints.md); `required` is what it marks so on create. */
const phoneNumber = (what: string, extra: Partial<FieldDraft> = {}): FieldDraft =>
	text(`${what}, as text passed through unchanged`, { placeholder: 'e.g. +15551234567', ...extra });
const incoming = (what: string): FieldDraft =>
	flag(`Whether the ${what} came in from the person (off: the agent made it)`, { required: true });
const personIdField = (what: string, extra: Partial<FieldDraft> = {}): FieldDraft =>
	crmId(`the person ${what}`, { placeholder: 'e.g. p_42', refersTo: 'person', ...extra });

const userIdField = (what: string): FieldDraft =>
	crmId(`the user (agent) ${what}`, { refersTo: 'user' });

export const noteResource = crmResource('notes', {
	description: 'A note on a person in the connected CRM',
	fields: {
		body: text("The note's text", { placeholder: 'e.g. Called back, wants a showing' }),
		isHtml: flag('Whether Body is HTML rather than plain text'),
		personId: personIdField('the note is about', { required: true }),
		subject: text("The note's subject line"),
	},
	syncOptIn: 'notes',
	simple: simpleForm('subject', 'body', 'personId'),
	upFront: ['body', 'subject'],
});

export const taskResource = crmResource('tasks', {
	description: 'A to-do for an agent, about a person, in the connected CRM',
	fields: {
		assignedUserId: userIdField('who should do the task'),
		dueDateTime: timeField('When the task is due'),
		isCompleted: flag('Whether the task is done'),
		name: text('What the agent should do, in a few words', {
			placeholder: 'e.g. Call back about the offer',
		}),
		personId: personIdField('the task is about', { required: true }),
		type: text(
			'Kind of task as the CRM names it (e.g. Call, Email, Follow Up), passed through unchanged',
		),
	},
	syncOptIn: 'tasks',
	simple: simpleForm('name', 'type', 'personId', 'assignedUserId', 'dueDateTime', 'isCompleted'),
	upFront: ['name', 'dueDateTime', 'assignedUserId'],
});

export const appointmentResource = crmResource('appointments', {
	description: 'A meeting with a person (showing, listing appointment, ...) in the connected CRM',
	fields: {
		appointmentOutcomeId: text(
			'ID of how the appointment went (see Appointment Outcome › Get Many)',
			{ refersTo: 'appointmentOutcome' },
		),
		appointmentTypeId: text('ID of the kind of appointment (see Appointment Type › Get Many)', {
			required: true,
			refersTo: 'appointmentType',
		}),
		description: text('Details of the appointment'),
		endsAt: timeField('When the appointment ends'),
		isAllDay: flag('Whether the appointment takes the whole day'),
		location: text('Where the appointment takes place', { required: true }),
		personId: personIdField('the appointment is with', { required: true }),
		startsAt: timeField('When the appointment starts'),
		title: text("The appointment's title", { required: true }),
		userId: userIdField('who holds the appointment'),
	},
	simple: simpleForm('title', 'personId', 'userId', 'startsAt', 'endsAt', 'location'),
	upFront: ['startsAt', 'endsAt', 'userId'],
});

const appointmentKind = (kind: 'type' | 'outcome', description: string, example: string) =>
	crmResource(`appointment-${kind}s`, {
		description,
		fields: {
			name: text(`The ${kind}'s name`, { required: true, placeholder: `e.g. ${example}` }),
			orderWeight: number(`Position of the ${kind} in the CRM's lists (lower comes first)`, {
				required: true,
			}),
		},
		simple: simpleForm('name', 'orderWeight'),
	});

export const appointmentTypeResource = appointmentKind(
	'type',
	'A kind of appointment (e.g. Showing) the connected CRM offers',
	'Showing',
);
export const appointmentOutcomeResource = appointmentKind(
	'outcome',
	'A way an appointment can end (e.g. Met, No Show) in the connected CRM',
	'No Show',
);

export const eventResource = crmResource('events', {
	description:
		"Something a person did (e.g. viewed a listing, filled a form), on the person's timeline in the connected CRM",
	fields: {
		description: text('Details of the event'),
		message: text('What the person wrote or asked, if anything'),
		noteId: text('ID of a note the event belongs to', { refersTo: 'note' }),
		occurredAt: timeField('When the event happened'),
		pageDuration: number('Seconds the person spent on the page'),
		pageReferrer: text('Address of the page that led the person there'),
		pageTitle: text('Title of the page the event happened on'),
		pageUrl: text('Address of the page the event happened on'),
		personId: personIdField('the event is about'),
		propertyId: text('ID of the property (listing) the event is about'),
		source: text('Where the event comes from (e.g. a website name)'),
		system: text('Name of the system that reports the event'),
		type: text(
			'Kind of event as the CRM names it (e.g. Viewed Property, Registration), passed through unchanged',
		),
	},
	simple: simpleForm('type', 'personId', 'message', 'source', 'occurredAt'),
	upFront: ['type', 'personId', 'occurredAt', 'description'],
});

export const callResource = crmResource('calls', {
	description: 'A phone call with a person, logged in the connected CRM',
	fields: {
		duration: number('Length of the call in seconds'),
		fromNumber: phoneNumber('Number the call came from'),
		isIncoming: incoming('call'),
		note: text('What was said'),
		outcome: text('How the call ended as the CRM names it (e.g. Interested, No Answer)'),
		personId: personIdField('the call was with', { required: true }),
		phone: phoneNumber("The person's number on the call", { required: true }),
		recordingUrl: text('Address of the call recording'),
		toNumber: phoneNumber('Number that was called'),
		userId: userIdField('who made or took the call'),
	},
	syncOptIn: 'calls',
	simple: simpleForm('personId', 'userId', 'phone', 'isIncoming', 'outcome', 'duration'),
	upFront: ['note', 'outcome', 'duration', 'userId'],
});

export const textMessageResource = crmResource('textMessages', {
	description: 'A text message (SMS) with a person, logged in the connected CRM',
	fields: {
		externalLabel: text('Label of a link to the message in another system'),
		externalUrl: text('Address of the message in another system'),
		fromNumber: phoneNumber('Number the message came from'),
		isIncoming: incoming('message'),
		message: text("The message's text", { required: true }),
		personId: personIdField('the message was with', { required: true }),
		sent: timeField('When the message was sent', { only: 'update' }),
		status: text("The message's delivery status as the CRM names it", { only: 'update' }),
		toNumber: phoneNumber('Number the message went to'),
		userId: userIdField('who sent or received the message'),
	},
	simple: simpleForm('personId', 'userId', 'message', 'isIncoming', 'status', 'sent'),
	upFront: ['toNumber', 'fromNumber', 'userId'],
});

export const emailMessageResource = crmResource('emailMessages', {
	description: 'An email with a person, logged in the connected CRM',
	fields: {
		body: text("The email's text", { required: true }),
		personId: personIdField('the email was with'),
		recipients: objectList('Who the email went to: a name and an email address each', {
			required: true,
			placeholder: 'Add Recipient',
			items: fields({
				name: text('Display name', { required: true }),
				email: text('Email address', { required: true }),
			}),
		}),
		sender: json(
			'Who sent the email, as a JSON object with name and email, e.g. {"name": "Ann Agent", "email": "ann@example.com"}',
			{ required: true },
		),
		subject: text("The email's subject line", { required: true }),
		threadId: text('ID of the conversation the email belongs to'),
		userId: userIdField('who sent or received the email'),
	},
	operations: ['create', 'get', 'getAll'],
	readKeys: ['sent', 'received', 'isIncoming', 'isRead', 'isStarred'],
	simple: simpleForm('personId', 'userId', 'subject', 'sender', 'isIncoming', 'sent'),
	upFront: ['personId', 'userId'],
});
