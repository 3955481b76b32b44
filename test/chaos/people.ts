/**
 * Person › Find and Person › Create or Update as chaos scenarios: both read the people list (one scan
 * per run, in pages), then Find GETs each match by its ID and Create or Update POSTs (no match), PUTs
 * (one match) or fails the item naming the candidates (several). So one run meets pages, GETs of one
 * person and writes. The people are built around the items: which item matches whom is known by
 * construction (emails differing in case and spaces, a second email, plain-text contacts, phones
 * with a country code, a trunk 0 or an extension), not by the node's own match rules.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { pick, refs, type PeopleCase, type PersonId, type Scenario } from './scenarios';
import { inProfile, stamps, TEXTS, uuidOf, type ListModel, type Profile } from './service';

/** The people list: each match key held by one item at most, so every person is read or written once. */
const PEOPLE: ReadonlyArray<{ emails: Array<string | IDataObject>; phones: string[] }> = [
	{ emails: [' Ada.Item0@Example.TEST '], phones: ['+1 (555) 010-1000'] },
	{ emails: ['filler1@example.test'], phones: [] },
	{ emails: ['BOTH@example.test'], phones: ['555 010 1002'] },
	{ emails: ['other3@example.test', '  both@EXAMPLE.test'], phones: [] },
	{ emails: ['p4@example.test'], phones: ['555 010 2000'] },
	// Contacts as plain text, as some connectors answer them.
	{ emails: ['plain:first5@example.test', 'plain:Second@Example.test'], phones: [] },
	{ emails: ['filler6@example.test'], phones: ['+44 20 7946 0006'] },
	{ emails: ['filler7@example.test'], phones: ['555 010 1007 x12'] },
];

/** The n-th person's ID as the profile writes IDs (text IDs with `/`, `%`, `?`, `#` and more). */
export function personIdOf(profile: Profile, n: number): PersonId {
	if (profile === 'numeric') return 21 + n;
	if (profile === 'uuid') return uuidOf(0x100 + n);
	return `person-${n + 1}/${TEXTS[n % TEXTS.length]}`;
}

function contacts(values: ReadonlyArray<string | IDataObject>, type: string): unknown[] {
	return values.map((value, k) =>
		typeof value === 'string' && value.startsWith('plain:')
			? value.slice('plain:'.length)
			: { value, type, isPrimary: k === 0 },
	);
}

/** The people list in the profile's shape, paged as `paging` says, three people a page. */
function peopleList(profile: Profile, paging: ListModel['paging']): ListModel {
	const records = PEOPLE.map(
		({ emails, phones }, n) =>
			({
				...(inProfile(profile, {
					id: personIdOf(profile, n),
					firstName: TEXTS[n % TEXTS.length],
					lastName: `Person ${n}`,
					emails: contacts(emails, 'work'),
					phones: contacts(phones, 'mobile'),
					tags: ['plain'],
					active: n % 2 === 0,
				}) as IDataObject),
				...stamps(profile),
				original: { source: 'chaos', row: n },
			}) as IDataObject,
	);
	return {
		host: 'crm',
		path: 'people',
		key: 'people',
		size: records.length,
		paging,
		profile,
		records,
	};
}

/** A run reads up to 3 pages, each item may re-read one after a failed read, then GETs or writes. */
const BUDGET_MS = 60_000;

interface FindCase {
	label: string;
	by: 'email' | 'phone';
	/** Per item: the value the item finds by, and the people (by position in PEOPLE) it matches. */
	rows: Array<[string, number[]]>;
	options: INodeParameters;
}

const FINDS: FindCase[] = [
	{
		label: 'Find by email',
		by: 'email',
		rows: [
			['  ada.item0@example.test', [0]],
			['Both@Example.Test', [2, 3]],
			['nobody@example.test', []],
			['SECOND@example.test ', [5]],
		],
		options: {},
	},
	{
		label: 'Find by phone, One Item With the Matches, Fail the Item when none',
		by: 'phone',
		rows: [
			['555-010-1000', [0]],
			['020 7946 0006', [6]],
			['555 010 9999', []],
			['(555) 010-2000', [4]],
			['+1 555 010 1002', [2]],
		],
		options: { output: 'oneItem', whenNone: 'error' },
	},
];

function findScenario(profile: Profile, find: FindCase, paging: ListModel['paging']): Scenario {
	const people: PeopleCase = {
		operation: 'find',
		list: peopleList(profile, paging),
		matches: find.rows.map(([, ids]) => ({
			ids: ids.map((n) => personIdOf(profile, n)),
			by: find.by,
		})),
		...(find.options.output === 'oneItem' ? { oneItem: true as const } : {}),
		...(find.options.whenNone === 'error' ? { failWhenNone: true as const } : {}),
	};
	return {
		label: `Person › ${find.label}, ${profile}`,
		host: 'crm',
		method: 'GET',
		shape: 'people',
		profile,
		parameters: {
			resource: 'person',
			operation: 'find',
			findBy: find.by,
			[find.by]: `={{ $json.${find.by} }}`,
			options: find.options,
		},
		items: () => find.rows.map(([value]) => ({ [find.by]: value })),
		people,
		budgetMs: BUDGET_MS,
	};
}

/** Create or Update's rows: an email and a phone, and the people (by position) each one matches. */
interface UpsertRow {
	email: string;
	phone?: string;
	byEmail: number[];
	byPhone: number[];
	/** An earlier row with this row's email, not in the list: what its create came to decides. */
	follows?: number;
}

const UPSERT_ROWS: UpsertRow[] = [
	{ email: 'ADA.item0@example.test', byEmail: [0], byPhone: [] },
	{ email: 'both@example.test', byEmail: [2, 3], byPhone: [] },
	{ email: 'new.item2@example.test', byEmail: [], byPhone: [] },
	{ email: 'nomatch3@example.test', phone: '(555) 010-2000', byEmail: [], byPhone: [4] },
	{ email: 'new.item4@example.test', phone: '555 010 9999', byEmail: [], byPhone: [] },
	{ email: 'filler7@EXAMPLE.test', phone: '+44 20 7946 0006', byEmail: [7], byPhone: [6] },
	// Item 2's new email again, in another case: one person is made, never two.
	{ email: 'New.Item2@Example.test', byEmail: [], byPhone: [], follows: 2 },
];

interface UpsertCase {
	label: string;
	/** Match By, in order: the first kind that finds anyone decides. */
	order: Array<'email' | 'phone'>;
	parameters: INodeParameters;
	query: string;
}

const UPSERTS: UpsertCase[] = [
	{ label: 'Create or Update', order: ['email', 'phone'], parameters: {}, query: '' },
	{
		label: 'Create or Update, phone first, Merge Tags',
		order: ['phone', 'email'],
		parameters: { matchBy: 'phoneThenEmail', options: { mergeTags: true } },
		query: '?mergeTags=true',
	},
];

/** The body Map Automatically sends for an item: its first name, emails and phones. */
const upsertBody = ({ firstName, emails, phones }: IDataObject): IDataObject => ({
	firstName,
	emails,
	...(phones === undefined ? {} : { phones }),
});

function upsertScenario(
	profile: Profile,
	upsert: UpsertCase,
	paging: ListModel['paging'],
): Scenario {
	const matches = UPSERT_ROWS.map((row) => {
		const found = upsert.order.map((by) => ({
			by,
			ids: (by === 'email' ? row.byEmail : row.byPhone).map((n) => personIdOf(profile, n)),
		}));
		const decides = found.find(({ ids }) => ids.length > 0) ?? found[0];
		// A follower is refused by the kind of key it shares: its email.
		return row.follows === undefined
			? decides
			: { ids: [], by: 'email' as const, follows: row.follows };
	});
	return {
		label: `Person › ${upsert.label}, ${profile}`,
		host: 'crm',
		method: 'POST',
		shape: 'people',
		profile,
		parameters: {
			resource: 'person',
			operation: 'upsert',
			mappingMode: 'autoMapInputData',
			...upsert.parameters,
		},
		items: (random) =>
			refs(UPSERT_ROWS.length).map((ref, index) => {
				const { email, phone } = UPSERT_ROWS[index];
				return {
					firstName: `${ref} ${pick(random, TEXTS)}`,
					emails: [{ value: email, type: 'work' }],
					...(phone === undefined ? {} : { phones: [{ value: phone, type: 'mobile' }] }),
				};
			}),
		people: {
			operation: 'upsert',
			list: peopleList(profile, paging),
			matches,
			body: upsertBody,
			query: upsert.query,
		},
		budgetMs: BUDGET_MS,
	};
}

const PAGING = ['link', 'offset', 'next'] as const;

/**
 * Person › Find (by email, and by phone with One Item With the Matches and Fail the Item) or Create
 * or Update (email first, and phone first with Merge Tags), in the profile's shape. Each operation's
 * cases take turns among the cursor kinds by profile.
 */
export function peopleScenarios(profile: Profile, operation: 'find' | 'upsert'): Scenario[] {
	const turn = ['default', 'numeric', 'uuid'].indexOf(profile);
	const paging = (n: number) => PAGING[(turn + n) % PAGING.length];
	return operation === 'find'
		? FINDS.map((find, n) => findScenario(profile, find, paging(n)))
		: UPSERTS.map((upsert, n) => upsertScenario(profile, upsert, paging(n + 1)));
}
