/**
 * The endpoints the service publishes beyond the specification, as one table: per entity its host,
 * path, list key (the array's name in a 200 list answer), which methods it answers, the body fields
 * it accepts (a `*` marks a field the published description requires) and the records every
 * connection starts with. Sources: /work/shared/spec/crm-endpoints.md for the CRM host; the
 * service's public API pages for LOS loans and the calendar host (docs/decisions.md cites them).
 */
import { CRM_ENTITIES } from './crmEntityRows';
import type { FieldType } from './schema';
import type { HostName, JsonObject } from './types';

export type EntityOp = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface EntityDef {
	host: HostName;
	/** Path below /api, e.g. 'notes'. */
	path: string;
	/** The array's key in a list answer, as the published 200 line names it. */
	listKey: string;
	/** What error messages call one record, e.g. 'note'. */
	noun: string;
	/** Prefix of created ids: `${idPrefix}-1`, `${idPrefix}-2`, ... (seeded ones are `${idPrefix}-seed-N`). */
	idPrefix: string;
	ops: readonly EntityOp[];
	/** Create body fields as 'name', 'name*' (required) or 'name:type'; undefined: any JSON object. */
	create?: string;
	/** Update body fields (none required); defaults to the create fields. */
	update?: string;
	/** Record number n's own fields (id and bookkeeping fields are added). */
	seed: (n: number) => JsonObject;
	/** How many records each connection starts with (3 unless given). */
	seedCount?: number;
	/** The whole seeded record n, where its shape is fixed elsewhere (loans). */
	seedRecord?: (n: number) => JsonObject;
}

/** Loans every connection has (GET /api/loans): three pages of 100 and a part. */
export const LOANS = 230;

function makeLoan(n: number): JsonObject {
	return {
		id: `loan-${n}`,
		borrowerId: 'b-1',
		amount: 100_000 + n * 1000,
		status: n % 3 === 0 ? 'closed' : 'open',
		original: { loanNumber: `LN-${n}` },
	};
}

const SEED_AT = '2024-01-01T00:00:00.000Z';
const meta = (id: string): JsonObject => ({
	created: SEED_AT,
	updated: SEED_AT,
	originalIds: { crm: `crm-${id}` },
	original: {},
});

/** Parses 'personId* subject isHtml:boolean' into field types and the required names. */
export function parseFields(spec: string): {
	types: Record<string, FieldType>;
	required: string[];
} {
	const types: Record<string, FieldType> = {};
	const required: string[] = [];
	for (const token of spec.split(/\s+/).filter((t) => t !== '')) {
		const parts = /^(\w+)(\*?)(?::(\w+))?$/.exec(token);
		if (!parts) throw new Error(`bad field spec '${token}'`);
		types[parts[1]] = (parts[3] ?? 'string') as FieldType;
		if (parts[2] === '*') required.push(parts[1]);
	}
	return { types, required };
}

const LOAN_UPDATE =
	'type assignedUserId statusDate applicationDate closingDate fundingDate interestRate:number ' +
	'loanToValue:number amount:number rateAndTerms:object term:number purpose stage status';

export const ENTITIES: readonly EntityDef[] = [
	...CRM_ENTITIES,
	{
		host: 'calendar',
		path: 'calendars',
		listKey: 'calendars',
		noun: 'calendar',
		idPrefix: 'cal',
		ops: ['list'],
		seed: (n) => ({
			name: n === 1 ? 'Work' : 'Personal',
			description: '',
			timezone: 'America/Chicago',
			color: n === 1 ? '#4285f4' : '#0b8043',
			isPrimary: n === 1,
			isReadOnly: false,
		}),
		seedCount: 2,
	},
	{
		host: 'calendar',
		path: 'calendarEvents',
		listKey: 'calendarEvents',
		noun: 'calendar event',
		idPrefix: 'cal-event',
		ops: ['list'],
		seed: (n) => ({
			calendarId: 'cal-seed-1',
			title: `Closing call ${n}`,
			description: '',
			location: '',
			start: `2024-04-0${n}T15:00:00.000Z`,
			end: `2024-04-0${n}T15:30:00.000Z`,
			isAllDay: false,
			timezone: 'America/Chicago',
			attendees: [],
			status: 'confirmed',
		}),
	},
	{
		host: 'los',
		path: 'loans',
		listKey: 'loans',
		noun: 'loan',
		idPrefix: 'loan-new',
		ops: ['list', 'get', 'create', 'update'],
		create:
			'amount:number type term:number loanNumber interestRate:number borrowers:objectArray ' +
			'statusDate applicationDate closingDate fundingDate loanToValue:number purpose stage ' +
			'status monthlyPayment:number escrowIncluded:boolean pmiRequired:boolean pmiRate:number ' +
			'participatingUserIds:stringArray',
		update: LOAN_UPDATE,
		seed: () => ({}),
		seedCount: LOANS,
		seedRecord: makeLoan,
	},
];

/** A seeded record: its fields, its id, and the service's bookkeeping fields. */
export function seedRecord(def: EntityDef, n: number): JsonObject {
	if (def.seedRecord) return def.seedRecord(n);
	const id = `${def.idPrefix}-seed-${n}`;
	return { id, ...meta(id), ...def.seed(n) };
}
