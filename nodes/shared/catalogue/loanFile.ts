import { borrowerResource } from './losRecords';
import {
	calendarList,
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
import type { FieldDraft, FieldSpec } from './types';

/** The calendar, as the service's public pages show it. */
const CALENDAR_PAGES = 'https://rollout.com/docs/api-reference/calendar';

/** A borrower created with the loan: the borrower's fields but Loan ID, its lists as JSON (an entry holds no collection). */
const LOAN_BORROWER_PARTS: readonly FieldSpec[] = (borrowerResource.fields ?? [])
	.filter((spec) => spec.name !== 'loanId')
	.map(({ name, label, type, description, placeholder }): FieldSpec => {
		const part = { name, label, type, ...(placeholder ? { placeholder } : {}) };
		return type === 'emails' || type === 'phones' || type === 'addresses'
			? { ...part, description: `${label} as a JSON list, each entry as in Borrower › Create` }
			: { ...part, description };
	});

const onlyOn = (only: 'create' | 'update', spec: FieldDraft): FieldDraft => ({
	...spec,
	only,
	description: `${spec.description}. ${only === 'create' ? 'Create' : 'Update'} only.`,
});

export const loanResource = losResource('loan', 'e.g. loan-1', {
	description: 'A loan file',
	operations: ['create', 'get', 'getAll', 'update'],
	fields: {
		amount: number('Loan amount as a plain number (e.g. 350000)'),
		applicationDate: timeField('When the application was made'),
		assignedUserId: onlyOn('update', text('ID of the loan officer the loan is assigned to')),
		borrowers: onlyOn(
			'create',
			objectList('Borrowers to create with the loan', {
				placeholder: 'Add Borrower',
				items: LOAN_BORROWER_PARTS,
			}),
		),
		closingDate: timeField('When the loan closes'),
		escrowIncluded: onlyOn('create', flag('Whether the payment includes escrow')),
		fundingDate: timeField('When the loan is funded'),
		interestRate: number('Interest rate in percent as a plain number (e.g. 6.5)'),
		loanNumber: onlyOn('create', text("The loan's number in the loan origination system")),
		loanToValue: number('Loan-to-value ratio in percent (e.g. 80)'),
		monthlyPayment: onlyOn('create', number('Monthly payment as a plain number')),
		participatingUserIds: onlyOn(
			'create',
			textList('IDs of the users working on the loan, one per entry', {
				placeholder: 'Add User ID',
			}),
		),
		pmiRate: onlyOn(
			'create',
			number('Private mortgage insurance rate in percent', { label: 'PMI Rate' }),
		),
		pmiRequired: onlyOn(
			'create',
			flag('Whether private mortgage insurance is required', { label: 'PMI Required' }),
		),
		purpose: text('Why the loan is taken, as the LOS names it (e.g. Purchase, Refinance)'),
		rateAndTerms: onlyOn(
			'update',
			json(
				'Payment terms as a JSON object with monthlyPayment, escrowIncluded, pmiRequired and pmiRate',
			),
		),
		stage: text("The loan's pipeline stage as the LOS names it"),
		status: text("The loan's status as the LOS names it"),
		statusDate: timeField('When the status last changed'),
		term: number('Length of the loan in months (e.g. 360)'),
		type: text('Kind of loan as the LOS names it (e.g. Conventional, FHA)'),
	},
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
	source: 'https://rollout.com/docs/api-reference/los/loans/',
});

export const calendarResource = calendarList('calendars', {
	description: 'A calendar of the connected calendar system',
	readKeys: ['name', 'description', 'timezone', 'isPrimary'],
	simple: simpleForm('name', 'description', 'timezone', 'isPrimary'),
	source: `${CALENDAR_PAGES}/calendars/list-calendars`,
});

export const calendarEventResource = calendarList('calendarEvents', {
	description: 'An event in the connected calendar system',
	readKeys: ['calendarId', 'title', 'start', 'end', 'location', 'status'],
	simple: simpleForm('title', 'calendarId', 'start', 'end', 'location', 'status'),
	source: `${CALENDAR_PAGES}/calendar-events/list-calendarevents`,
});
