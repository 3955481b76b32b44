/**
 * The demo's steps for the published endpoints (issue 30): one operation of each resource, against
 * the sandbox's seeded records (test/sandbox/entityTable.ts).
 */
import type { INodeParameters } from 'n8n-workflow';

const step = (title: string, resource: string, operation: string, rest: INodeParameters = {}) => ({
	title,
	parameters: { resource, operation, ...rest },
});

export const PUBLISHED_STEPS: { title: string; parameters: INodeParameters }[] = [
	step('Note › Create (log a note after a call)', 'note', 'create', {
		personId: 'p_1',
		additionalFields: { subject: 'Call', body: 'Called back, wants a showing on Saturday' },
	}),
	step('Task › Create (a follow-up task)', 'task', 'create', {
		personId: 'p_1',
		additionalFields: { name: 'Send listings', dueDateTime: '2024-05-04T15:00:00Z' },
	}),
	step('Appointment › Get Many (first 2)', 'appointment', 'getAll', { limit: 2 }),
	step('Appointment Type › Get Many (first 2)', 'appointmentType', 'getAll', { limit: 2 }),
	step('Appointment Outcome › Get', 'appointmentOutcome', 'get', {
		appointmentOutcomeId: 'appointment-outcome-seed-1',
	}),
	step('Event › Get Many (first 2)', 'event', 'getAll', { limit: 2 }),
	step('Call › Create', 'call', 'create', {
		personId: 'p_2',
		phone: '+15550100',
		isIncoming: false,
		additionalFields: { outcome: 'Interested', duration: 120 },
	}),
	step('Text Message › Get', 'textMessage', 'get', { textMessageId: 'text-message-seed-1' }),
	step('Email Message › Get Many (first 2)', 'emailMessage', 'getAll', { limit: 2 }),
	step('User › Get Many (first 2)', 'user', 'getAll', { limit: 2 }),
	step('Team › Update', 'team', 'update', {
		teamId: 'team-seed-1',
		updateFields: { name: 'North office' },
	}),
	step('Smart List › Get', 'smartList', 'get', { smartListId: 'smart-list-seed-1' }),
	step('List › Add People', 'list', 'addPeople', {
		listId: 'list-seed-1',
		personIds: ['p_2', 'p_3'],
	}),
	step('Custom Field › Get Many (first 2)', 'customField', 'getAll', { limit: 2 }),
	step('Loan › Update (loan-7 closes)', 'loan', 'update', {
		loanId: 'loan-7',
		updateFields: { status: 'closed' },
	}),
	step('Calendar › Get Many', 'calendar', 'getAll', { limit: 5 }),
	step('Calendar Event › Get Many (first 2)', 'calendarEvent', 'getAll', { limit: 2 }),
	step('Note › Delete (a seeded note)', 'note', 'delete', {
		noteId: 'note-seed-2',
	}),
];
