/**
 * nodes/IntegrationService/actions/output.ts: whatever a service answers, what a model reads stays
 * under TOOL_MAX_CHARS and a page's cursor reaches it whole; Fields to Return only ever selects.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	boundForModel,
	shapeRecord,
	simpleRecord,
	TOOL_MAX_CHARS,
} from '../../nodes/IntegrationService/actions/output';

const size = (items: unknown) => JSON.stringify(items).length;
const record = fc.dictionary(
	fc.string({ maxLength: 30 }),
	fc.jsonValue({ maxDepth: 6 }) as fc.Arbitrary<IDataObject[string]>,
	{ maxKeys: 40 },
);

describe('boundForModel', () => {
	it('an answer that fits is returned as it is (the same objects)', () => {
		const items = [{ id: 'p_1', name: 'Ada' }];
		expect(boundForModel(items)).toBe(items);
	});

	it('any records, with huge texts, lists, keys and nesting, stay under the bound', () => {
		const huge = fc.oneof(
			fc.constant('x'.repeat(100_000)),
			fc.constant(Array.from({ length: 20_000 }, (_, i) => i)),
			fc.constant(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, i]))),
			fc.constant(JSON.parse('{"a":'.repeat(500) + '1' + '}'.repeat(500)) as IDataObject),
		);
		fc.assert(
			fc.property(fc.array(record, { maxLength: 20 }), huge, (records, big) => {
				const items = [...records, { id: 'big', big }];
				expect(size(boundForModel(items))).toBeLessThanOrEqual(TOOL_MAX_CHARS);
			}),
			{ seed: 32, numRuns: 60 },
		);
	});

	it("a page's cursor, done, count and more are never cut; a record's own huge nextCursor is", () => {
		const cursor = `isc1.${'c'.repeat(16_000)}`;
		const people = Array.from({ length: 20 }, (_, i) => ({
			id: `p_${i}`,
			notes: 'n'.repeat(50_000),
		}));
		const [page] = boundForModel([
			{ people, count: 20, nextCursor: cursor, done: false, more: 'More records follow.' },
		]);
		expect(page).toMatchObject({
			count: 20,
			nextCursor: cursor,
			done: false,
			more: 'More records follow.',
		});
		expect(page.truncated).toContain('ask for fewer fields');

		const [hostile] = boundForModel([{ id: 'p_1', nextCursor: 'x'.repeat(1_000_000) }]);
		expect(size([hostile])).toBeLessThanOrEqual(TOOL_MAX_CHARS);
	});

	it('a service\'s own "__proto__" key stays data', () => {
		const item = JSON.parse(`{"__proto__": {"polluted": true}, "notes": "${'x'.repeat(50_000)}"}`);
		const [bounded] = boundForModel([item]);
		expect(Object.getPrototypeOf(bounded)).toBe(Object.prototype);
		expect(({} as IDataObject).polluted).toBeUndefined();
	});
});

describe('shapeRecord', () => {
	it('keeps only named fields the record has, never adds one', () => {
		fc.assert(
			fc.property(
				record,
				fc.array(fc.string({ maxLength: 10 }), { maxLength: 10 }),
				(given, fields) => {
					const shaped = shapeRecord(given, { fields, compact: false, asTool: true });
					for (const key of Object.keys(shaped)) {
						expect(fields).toContain(key);
						expect(shaped[key]).toBe(given[key]);
					}
				},
			),
			{ seed: 32, numRuns: 200 },
		);
	});

	it('compact leaves only "original" out; no choice returns the record itself', () => {
		const person = { id: 'p_1', original: { big: true } };
		expect(shapeRecord(person, { compact: true, asTool: false })).toEqual({ id: 'p_1' });
		expect(shapeRecord(person, { compact: false, asTool: false })).toBe(person);
	});

	it('a field named in Fields to Return wins over the compact form: "original" named is kept (as a tool too)', () => {
		const person = { id: 'p_1', firstName: 'Ada', original: { big: true } };
		expect(
			shapeRecord(person, { fields: ['id', 'original'], compact: true, asTool: true }),
		).toEqual({ id: 'p_1', original: { big: true } });
	});
});

describe('simpleRecord (version 2: the catalogue’s simple form)', () => {
	const KEYS = ['id', 'name', { name: 'email', primaryOf: 'emails' }, 'created', 'createdAt'];

	it('keeps the keys named that the record has, in their order, and no other', () => {
		const person = { original: {}, createdAt: 't', tags: ['vip'], name: 'Ada', id: 7 };
		const simple = simpleRecord(person, KEYS);
		expect(simple).toEqual({ id: 7, name: 'Ada', createdAt: 't' });
		expect(Object.keys(simple)).toEqual(['id', 'name', 'createdAt']);
	});

	it('a contact list as its primary value: isPrimary true or 1, else the first entry', () => {
		const emails = (isPrimary: unknown) => [
			{ value: 'first@example.test' },
			{ value: 'primary@example.test', isPrimary },
		];
		expect(simpleRecord({ emails: emails(true) }, KEYS)).toEqual({ email: 'primary@example.test' });
		expect(simpleRecord({ emails: emails(1) }, KEYS)).toEqual({ email: 'primary@example.test' });
		expect(simpleRecord({ emails: emails(false) }, KEYS)).toEqual({ email: 'first@example.test' });
		for (const odd of [[], null, 'a@example.test', [null, 'x'], [{ type: 'work' }]])
			expect(simpleRecord({ emails: odd } as IDataObject, KEYS)).toEqual({});
	});

	it('a key of the prototype is never read, and an own "__proto__" is never named', () => {
		const hostile = JSON.parse('{"__proto__": {"id": "x"}, "name": "Ada"}') as IDataObject;
		const simple = simpleRecord(hostile, [...KEYS, '__proto__']);
		expect(Object.getPrototypeOf(simple)).toBe(Object.prototype);
		expect(simple.name).toBe('Ada');
		expect(simpleRecord({}, ['toString', 'constructor'])).toEqual({});
	});

	it('shapeRecord: Fields to Return wins over the simple form, which wins over compact', () => {
		const person = { id: 'p_1', name: 'Ada', tags: ['vip'], original: {} };
		const choice = { compact: true, simple: ['id', 'name'], asTool: true };
		expect(shapeRecord(person, choice)).toEqual({ id: 'p_1', name: 'Ada' });
		expect(shapeRecord(person, { ...choice, fields: ['tags'] })).toEqual({ tags: ['vip'] });
		expect(shapeRecord(person, { compact: false, simple: ['id'], asTool: false })).toBe(person);
	});
});

describe('a record without `original` (picked)', () => {
	it('keeps an own "__proto__" key as data and never changes the copy\'s prototype', () => {
		const record = JSON.parse(
			'{"id":"p_1","__proto__":{"polluted":true},"original":{}}',
		) as IDataObject;
		const copy = shapeRecord(record, { compact: true, asTool: false });
		expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
		expect(Object.keys(copy)).toEqual(['id', '__proto__']);
		expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
	});
});
