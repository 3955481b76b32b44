import { BORROWER_FIELDS } from './losRecords';
import {
	flag,
	json,
	losResource,
	number,
	objectList,
	simpleForm,
	text,
	textList,
	timeField,
} from './entry';
import type { FieldSpec, ResourceSpec } from './types';

/** The loan file and the calendar, as the service's public pages show them. */
const LOS_PAGES = 'https://rollout.com/docs/api-reference/los';
const CALENDAR_PAGES = 'https://rollout.com/docs/api-reference/calendar';

/** A borrower created with the loan: the borrower's fields but Loan ID, its lists as JSON (an entry holds no collection). */
const LOAN_BORROWER_PARTS: readonly FieldSpec[] = BORROWER_FIELDS.filter(
	(spec) => spec.name !== 'loanId',
).map(({ name, label, type, description, placeholder }): FieldSpec => {
	const part = { name, label, type, ...(placeholder ? { placeholder } : {}) };
	return type === 'emails' || type === 'phones' || type === 'addresses'
		? { ...part, description: `${label} as a JSON list, each entry as in Borrower › Create` }
		: { ...part, description };
});

const onlyOn = (only: 'create' | 'update', spec: FieldSpec): FieldSpec => ({
	...spec,
	only,
	description: `${spec.description}. ${only === 'create' ? 'Create' : 'Update'} only.`,
});

const loanBorrowers = onlyOn(
	'create',
	objectList('borrowers', 'Borrowers to create with the loan', {
		placeholder: 'Add Borrower',
		items: LOAN_BORROWER_PARTS,
	}),
);

const loanFields: readonly FieldSpec[] = [
	number('amount', 'Loan amount as a plain number (e.g. 350000)'),
	timeField('applicationDate', 'When the application was made'),
	onlyOn('update', text('assignedUserId', 'ID of the loan officer the loan is assigned to')),
	loanBorrowers,
	timeField('closingDate', 'When the loan closes'),
	onlyOn('create', flag('escrowIncluded', 'Whether the payment includes escrow')),
	timeField('fundingDate', 'When the loan is funded'),
	number('interestRate', 'Interest rate in percent as a plain number (e.g. 6.5)'),
	onlyOn('create', text('loanNumber', "The loan's number in the loan origination system")),
	number('loanToValue', 'Loan-to-value ratio in percent (e.g. 80)'),
	onlyOn('create', number('monthlyPayment', 'Monthly payment as a plain number')),
	onlyOn(
		'create',
		textList('participatingUserIds', 'IDs of the users working on the loan, one per entry', {
			placeholder: 'Add User ID',
		}),
	),
	onlyOn(
		'create',
		number('pmiRate', 'Private mortgage insurance rate in percent', { label: 'PMI Rate' }),
	),
	onlyOn(
		'create',
		flag('pmiRequired', 'Whether private mortgage insurance is required', {
			label: 'PMI Required',
		}),
	),
	text('purpose', 'Why the loan is taken, as the LOS names it (e.g. Purchase, Refinance)'),
	onlyOn(
		'update',
		json(
			'rateAndTerms',
			'Payment terms as a JSON object with monthlyPayment, escrowIncluded, pmiRequired and pmiRate',
		),
	),
	text('stage', "The loan's pipeline stage as the LOS names it"),
	text('status', "The loan's status as the LOS names it"),
	timeField('statusDate', 'When the status last changed'),
	number('term', 'Length of the loan in months (e.g. 360)'),
	text('type', 'Kind of loan as the LOS names it (e.g. Conventional, FHA)'),
];

export const loanResource = losResource('loan', 'A loan file', 'e.g. loan-1', {
	operations: ['create', 'get', 'getAll', 'update'],
	fields: loanFields,
	upFront: ['loanNumber', 'amount', 'purpose', 'type'],
	readKeys: ['borrowerId'],
	simple: simpleForm(
		'loanNumber',
		'amount',
		'purpose',
		'stage',
		'status',
		'borrowerId',
		'assignedUserId',
	),
	source: `${LOS_PAGES}/loans/`,
});

export const calendarResource: ResourceSpec = {
	value: 'calendar',
	label: 'Calendar',
	description: 'A calendar of the connected calendar system',
	host: 'calendar',
	path: ['calendars'],
	listKey: 'calendars',
	noun: { one: 'calendar', many: 'calendars' },
	section: 'loanAndCalendar',
	operations: ['getAll'],
	readKeys: ['name', 'description', 'timezone', 'isPrimary'],
	simple: simpleForm('name', 'description', 'timezone', 'isPrimary'),
	source: `${CALENDAR_PAGES}/calendars/list-calendars`,
};

export const calendarEventResource: ResourceSpec = {
	value: 'calendarEvent',
	label: 'Calendar Event',
	description: 'An event in the connected calendar system',
	host: 'calendar',
	path: ['calendarEvents'],
	listKey: 'calendarEvents',
	noun: { one: 'calendar event', many: 'calendar events' },
	section: 'loanAndCalendar',
	operations: ['getAll'],
	readKeys: ['calendarId', 'title', 'start', 'end', 'location', 'status'],
	simple: simpleForm('title', 'calendarId', 'start', 'end', 'location', 'status'),
	source: `${CALENDAR_PAGES}/calendar-events/list-calendarevents`,
};
