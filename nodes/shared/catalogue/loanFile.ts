import { CRUD, field, timeField, type PublishedField, type PublishedResource } from './published';

/**
 * The loan file and the calendar, as the service's public pages show them (docs/decisions.md cites
 * each page): loans (list, get, create, update), calendars and calendar events (lists), and the
 * operations Borrower and Document gain (borrowers: list, get, create, delete; documents: list, get,
 * update, delete). The LOS and calendar lists page with `_metadata` like the CRM's.
 */

const LOS_PAGES = 'https://rollout.com/docs/api-reference/los';
const CALENDAR_PAGES = 'https://rollout.com/docs/api-reference/calendar';

const number = (name: string, label: string, description: string, only?: 'create' | 'update') =>
	field(name, label, 'number', description, only ? { only } : {});
const text = (name: string, label: string, description: string, only?: 'create' | 'update') =>
	field(name, label, 'string', description, only ? { only } : {});
const date = (name: string, label: string, what: string): PublishedField =>
	timeField(name, label, what);

const loanFields: readonly PublishedField[] = [
	number('amount', 'Amount', 'Loan amount as a plain number (e.g. 350000)'),
	date('applicationDate', 'Application Date', 'When the application was made'),
	text(
		'assignedUserId',
		'Assigned User ID',
		'ID of the loan officer the loan is assigned to. Update only.',
		'update',
	),
	field('borrowers', 'Borrowers', 'objectList', 'Borrowers to create with the loan. Create only.', {
		only: 'create',
		placeholder: 'Add Borrower',
		items: [
			text('name', 'Name', "The borrower's full name (or an entity's name)"),
			text('taxId', 'Tax ID', "The borrower's tax identification number, sent as entered"),
			text('role', 'Role', "The borrower's role on the loan as the LOS names it (e.g. primary)"),
			text('type', 'Type', 'Kind of borrower as the LOS names it (e.g. individual)'),
			field(
				'emails',
				'Emails',
				'jsonArray',
				'Email addresses as a JSON list, e.g. [{"value": "jane@example.com"}]',
			),
			field(
				'phones',
				'Phones',
				'jsonArray',
				'Phone numbers as a JSON list, e.g. [{"value": "+15551234567"}]',
			),
			field(
				'addresses',
				'Addresses',
				'jsonArray',
				'Postal addresses as a JSON list, e.g. [{"city": "Austin"}]',
			),
			field(
				'bio',
				'Bio',
				'json',
				'Biographical details as a JSON object, e.g. {"maritalStatus": "married"}',
			),
		],
	}),
	date('closingDate', 'Closing Date', 'When the loan closes'),
	field(
		'escrowIncluded',
		'Escrow Included',
		'boolean',
		'Whether the payment includes escrow. Create only.',
		{
			only: 'create',
		},
	),
	date('fundingDate', 'Funding Date', 'When the loan is funded'),
	number('interestRate', 'Interest Rate', 'Interest rate in percent as a plain number (e.g. 6.5)'),
	text(
		'loanNumber',
		'Loan Number',
		"The loan's number in the loan origination system. Create only.",
		'create',
	),
	number('loanToValue', 'Loan To Value', 'Loan-to-value ratio in percent (e.g. 80)'),
	number(
		'monthlyPayment',
		'Monthly Payment',
		'Monthly payment as a plain number. Create only.',
		'create',
	),
	field(
		'participatingUserIds',
		'Participating User IDs',
		'stringList',
		'IDs of the users working on the loan, one per entry. Create only.',
		{ only: 'create', placeholder: 'Add User ID' },
	),
	number(
		'pmiRate',
		'PMI Rate',
		'Private mortgage insurance rate in percent. Create only.',
		'create',
	),
	field(
		'pmiRequired',
		'PMI Required',
		'boolean',
		'Whether private mortgage insurance is required. Create only.',
		{
			only: 'create',
		},
	),
	text(
		'purpose',
		'Purpose',
		'Why the loan is taken, as the LOS names it (e.g. Purchase, Refinance)',
	),
	field(
		'rateAndTerms',
		'Rate And Terms',
		'json',
		'Payment terms as a JSON object with monthlyPayment, escrowIncluded, pmiRequired and pmiRate. Update only.',
		{ only: 'update' },
	),
	text('stage', 'Stage', "The loan's pipeline stage as the LOS names it"),
	text('status', 'Status', "The loan's status as the LOS names it"),
	date('statusDate', 'Status Date', 'When the status last changed'),
	number('term', 'Term', 'Length of the loan in months (e.g. 360)'),
	text('type', 'Type', 'Kind of loan as the LOS names it (e.g. Conventional, FHA)'),
];

export const loanResource: PublishedResource = {
	value: 'loan',
	label: 'Loan',
	description: 'A loan file in the connected loan origination system',
	host: 'los',
	path: ['loans'],
	listKey: 'loans',
	id: { label: 'Loan ID', name: 'loanId', placeholder: 'e.g. loan-1' },
	noun: { one: 'loan', many: 'loans' },
	operations: ['create', 'get', 'getAll', 'update'],
	fields: loanFields,
	source: `${LOS_PAGES}/loans/`,
};

export const calendarResource: PublishedResource = {
	value: 'calendar',
	label: 'Calendar',
	description: 'A calendar of the connected calendar system',
	host: 'calendar',
	path: ['calendars'],
	listKey: 'calendars',
	noun: { one: 'calendar', many: 'calendars' },
	operations: ['getAll'],
	source: `${CALENDAR_PAGES}/calendars/list-calendars`,
};

export const calendarEventResource: PublishedResource = {
	value: 'calendarEvent',
	label: 'Calendar Event',
	description: 'An event in the connected calendar system',
	host: 'calendar',
	path: ['calendarEvents'],
	listKey: 'calendarEvents',
	noun: { one: 'calendar event', many: 'calendar events' },
	operations: ['getAll'],
	source: `${CALENDAR_PAGES}/calendar-events/list-calendarevents`,
};

/** Borrower's operations with the published ones (list, get, create, delete) beside the specification's update. */
export const BORROWER_OPERATIONS = CRUD;
/** Document's operations with the published ones (list, get, update, delete) beside the specification's create. */
export const DOCUMENT_OPERATIONS = CRUD;
/** Document has no ID in the specification's entry: the published get, update and delete need one. */
export const DOCUMENT_ID = { label: 'Document ID', name: 'documentId', placeholder: 'e.g. doc_1' };

export const LOAN_FILE: readonly PublishedResource[] = [
	loanResource,
	calendarResource,
	calendarEventResource,
];
