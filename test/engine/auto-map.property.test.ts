/**
 * Map Automatically as an invariant, through n8n's engine against the sandbox: a generator makes
 * arbitrary input rows (objects, lists, null, numbers, unicode text, in any wire field, plus columns
 * that are not fields) and after every run:
 *  - every item is accounted for: one output item each, paired to it, in order;
 *  - an item refused as input names a field and its item, and sent nothing;
 *  - every other item sent exactly one request, and every value in that body was given by the item
 *    itself (text as text, a number or boolean as its text, a numeric text as a number): nothing is
 *    made up, so no "[object Object]", "a,b", "null" or "NaN" reaches the CRM.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.PROPERTY_SEED ?? 18);
const ITEMS_PER_RUN = 20;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const createPerson = operationRunner(() => sandbox, 'person', 'create');

/** Values a spreadsheet, a database row or an upstream API could put in a column. */
const anyValue = fc.oneof(
	fc.string({ maxLength: 12 }),
	fc.fullUnicodeString({ maxLength: 6 }),
	fc.integer({ min: -5, max: 500000 }),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	fc.boolean(),
	fc.constant(null),
	fc.constantFrom('true', 'false', ' 42 ', '', '  '),
	fc.jsonValue({ maxDepth: 2 }),
);
/** Mostly what the field takes, sometimes anything: so that runs see both sent and refused items. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
	fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anyValue, weight: 1 });
const text = fc.string({ minLength: 1, maxLength: 10 });
const numberLike = fc.oneof(
	fc.integer({ min: 0, max: 900000 }),
	fc.integer({ min: 0, max: 9 }).map(String),
);

const contactEntry = fc.record(
	{
		value: mostly(fc.emailAddress()),
		type: mostly(text),
		status: mostly(text),
		isPrimary: mostly(fc.boolean()),
	},
	{ requiredKeys: [] },
);
const address = fc.record(
	{ type: mostly(text), street: mostly(text), city: mostly(text), code: mostly(numberLike) },
	{ requiredKeys: [] },
);
const list = <T>(entry: fc.Arbitrary<T>) => mostly(fc.array(entry, { maxLength: 3 }));

const personRow = fc.record(
	{
		firstName: mostly(text),
		lastName: mostly(text),
		stage: mostly(text),
		birthday: mostly(text),
		averageBeds: mostly(numberLike),
		averagePrice: mostly(numberLike),
		rating: mostly(numberLike),
		tags: list(mostly(text)),
		contactTypes: list(mostly(text)),
		emails: list(contactEntry),
		phones: list(contactEntry),
		addresses: list(address),
		communicationsConsent: mostly(
			fc.record({ email: mostly(fc.boolean()), text: mostly(fc.boolean()) }, { requiredKeys: [] }),
		),
		rowNumber: anyValue,
		notAField: anyValue,
	},
	{ requiredKeys: [] },
);

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a value the node sent was given by the input value in its place (the mapper's documented conversions only). */
function givenBy(sent: unknown, input: unknown): boolean {
	if (typeof sent === 'string') {
		if (typeof input === 'string') return sent === input || sent === input.trim();
		return (typeof input === 'number' && Number.isFinite(input)) || typeof input === 'boolean'
			? sent === String(input)
			: false;
	}
	if (typeof sent === 'number')
		return (
			input === sent || (typeof input === 'string' && input.trim() !== '' && Number(input) === sent)
		);
	if (typeof sent === 'boolean') return input === sent || input === String(sent);
	if (Array.isArray(sent)) {
		// A list of text may come as one comma-separated text; a list's entries come from its own entries.
		const sources =
			typeof input === 'string' ? input.split(',') : Array.isArray(input) ? input : undefined;
		return (
			sources !== undefined &&
			sent.every((entry) => sources.some((source) => givenBy(entry, source)))
		);
	}
	if (isObject(sent))
		return (
			isObject(input) && Object.entries(sent).every(([key, value]) => givenBy(value, input[key]))
		);
	return false;
}

const INPUT_ERROR = /^(Input Field "(\w+)"[^:]*|Map Automatically): .+ \(item (\d+)\)$/;

test(`Map Automatically never makes up a value, and accounts for every item (seed ${SEED}, ${RUNS} runs of ${ITEMS_PER_RUN} items)`, async () => {
	let sentTotal = 0;
	let refusedTotal = 0;
	await fc.assert(
		fc.asyncProperty(
			fc.array(personRow, { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
			async (rows) => {
				sandbox.reset();
				const result = await createPerson({
					parameters: {
						mappingMode: 'autoMapInputData',
						requestOptions: { concurrency: 1, maxRequestsPerSecond: 0, maxAttempts: 1 },
					},
					items: rows as IDataObject[],
					onError: 'continueRegularOutput',
				});
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.pairedItem)).toEqual(
					rows.map((_row, item) => ({ item })),
				);

				// One at a time, in order: the requests belong to the items that were not refused, in their order.
				const requests = [...sandbox.requests];
				result.items.forEach((item, index) => {
					const refused =
						typeof item.json.error === 'string' ? INPUT_ERROR.exec(item.json.error) : null;
					if (refused) {
						expect(refused[3]).toBe(String(index));
						if (refused[2] !== undefined) expect(Object.keys(rows[index])).toContain(refused[2]);
						refusedTotal++;
						return;
					}
					const request = requests.shift();
					expect(request).toBeDefined();
					expect(request?.method).toBe('POST');
					const body = request?.body as IDataObject;
					expect(JSON.stringify(body)).not.toMatch(/\[object |"undefined"|"NaN"/);
					for (const [field, value] of Object.entries(body)) {
						if (!givenBy(value, (rows[index] as IDataObject)[field])) {
							throw new Error(
								`item ${index}: ${field} = ${JSON.stringify(value)} was not given by ${JSON.stringify((rows[index] as IDataObject)[field])}`,
							);
						}
					}
					sentTotal++;
				});
				expect(requests).toHaveLength(0);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
	// The generator reaches both outcomes, or the invariants above would prove little.
	expect(sentTotal).toBeGreaterThan(RUNS);
	expect(refusedTotal).toBeGreaterThan(RUNS);
});
