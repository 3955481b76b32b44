/**
 * The match rules of Person › Find and Create or Update (nodes/IntegrationService/search/matchKeys.ts)
 * and the upsert decision (upsert.ts): pure, no HTTP.
 */
import fc from 'fast-check';

import {
	contactValues,
	emailKey,
	nameKey,
	personIdOf,
	personKeys,
	phoneKey,
} from '../../nodes/IntegrationService/search/matchKeys';
import { ambiguityMessage, decideUpsert } from '../../nodes/IntegrationService/search/upsert';

const spaces = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0');
/** The same text with each letter's case flipped at random. */
const anyCase = (text: string) =>
	fc
		.array(fc.boolean(), { minLength: text.length, maxLength: text.length })
		.map((flips) =>
			[...text].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
		);

describe('email keys', () => {
	it('an email in any case and surrounding whitespace matches itself', () => {
		const email = fc.emailAddress();
		fc.assert(
			fc.property(
				email.chain((e) => fc.tuple(fc.constant(e), anyCase(e), spaces, spaces)),
				([e, cased, before, after]) => {
					expect(emailKey(before + cased + after)).toBe(emailKey(e));
				},
			),
		);
	});

	it('two different addresses never match', () => {
		fc.assert(
			fc.property(fc.emailAddress(), fc.emailAddress(), (a, b) => {
				fc.pre(a.toLowerCase() !== b.toLowerCase());
				expect(emailKey(a)).not.toBe(emailKey(b));
			}),
		);
	});

	it('blank and non-text emails have no key', () => {
		for (const value of ['', '   ', null, undefined, 42, {}])
			expect(emailKey(value)).toBeUndefined();
	});
});

/** A ten-digit North American number in the ways people write it. */
function formats(n: string): string[] {
	const [a, b, c] = [n.slice(0, 3), n.slice(3, 6), n.slice(6)];
	return [
		n,
		`+1 (${a}) ${b}-${c}`,
		`${a}.${b}.${c}`,
		`1-${a}-${b}-${c}`,
		`(${a}) ${b} ${c}`,
		`+1${n}`,
		`001 ${a} ${b} ${c}`,
		`${a}-${b}-${c} x123`,
		`${a} ${b} ${c} ext. 9`,
		`+1 ${a} ${b} ${c};ext=7`,
	];
}

describe('phone keys: the last ten digits when there are ten or more, else all (seven at least)', () => {
	const tenDigits = fc.stringMatching(/^[2-9]\d{9}$/);

	it('a phone in any of its formats matches itself', () => {
		fc.assert(
			fc.property(tenDigits, fc.nat(9), (n, pick) => {
				expect(phoneKey(formats(n)[pick])).toBe(n);
			}),
		);
	});

	it('two different numbers never match', () => {
		fc.assert(
			fc.property(tenDigits, tenDigits, fc.nat(9), fc.nat(9), (a, b, i, j) => {
				fc.pre(a !== b);
				expect(phoneKey(formats(a)[i])).not.toBe(phoneKey(formats(b)[j]));
			}),
		);
	});

	it('a UK number with +44, 0044 or its trunk 0 is one number', () => {
		const keys = ['44 20 7946 0000', '+44 20 7946 0000', '0044 20 7946 0000', '020 7946 0000'].map(
			phoneKey,
		);
		expect(new Set(keys)).toEqual(new Set(['2079460000']));
		expect(phoneKey('+44 20 7946 0001 ext 12')).toBe('2079460001');
	});

	it('a short number matches only all of its digits; under seven digits is no phone', () => {
		expect(phoneKey('010-0001')).toBe('0100001');
		expect(phoneKey('555-010-0001')).not.toBe(phoneKey('010-0001'));
		for (const value of ['911', '0', '12345-6', '', 'none', null, undefined])
			expect(phoneKey(value)).toBeUndefined();
		expect(phoneKey(5550100001)).toBe('5550100001');
	});
});

describe('name keys: the whole name, any case, words one space apart', () => {
	it('a name in any case and spacing matches itself', () => {
		const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
		fc.assert(
			fc.property(
				fc.array(word, { minLength: 1, maxLength: 3 }),
				fc.array(spaces, { minLength: 4, maxLength: 4 }),
				(words, gaps) => {
					const written = gaps[0] + words.map((w) => w.toUpperCase()).join(` ${gaps[1]}`) + gaps[3];
					expect(nameKey(written)).toBe(words.join(' ').toLowerCase());
				},
			),
		);
	});

	it('part of a name is not the name', () => {
		expect(nameKey('Ada')).not.toBe(nameKey('Ada Lovelace'));
	});
});

describe("a person's keys, whatever shape the connected system answers", () => {
	it('reads every email and phone: objects with any isPrimary and type, plain text, junk entries', () => {
		const keys = personKeys({
			id: 11,
			firstName: 'Ada',
			lastName: 'Lovelace',
			name: 'Countess Lovelace',
			emails: [
				{ value: 'Ada@X.test', type: 'home', isPrimary: 1 },
				{ value: 'ada@x.test', isPrimary: 0 },
				' second@X.test ',
				null,
				{ type: 'work' },
				7,
			],
			phones: [{ value: '+1 (555) 010-0001', isPrimary: true }, '555.010.0002', { value: null }],
		});
		expect(keys).toEqual({
			email: ['ada@x.test', 'second@x.test'],
			phone: ['5550100001', '5550100002'],
			name: ['countess lovelace', 'ada lovelace'],
		});
	});

	it('copes with no lists at all, one contact value not in a list, and only a name', () => {
		expect(personKeys({ id: 'p_1' })).toEqual({ email: [], phone: [], name: [] });
		expect(personKeys({ emails: { value: 'A@B.test' }, name: 'Mary  Jackson' })).toEqual({
			email: ['a@b.test'],
			phone: [],
			name: ['mary jackson'],
		});
		expect(contactValues('x')).toEqual(['x']);
	});

	it('keeps an ID as it came: a number stays a number', () => {
		expect(personIdOf({ id: 11 })).toBe(11);
		expect(personIdOf({ id: 'p_1' })).toBe('p_1');
		for (const id of [undefined, null, '', ' ', NaN, {}])
			expect(personIdOf({ id } as never)).toBeUndefined();
	});
});

describe('the upsert decision', () => {
	const step = (kind: 'email' | 'phone', ids: Array<string | number>, keys = ['k']) => ({
		kind,
		keys,
		ids,
	});

	it('updates the one person found by the first kind that finds anyone', () => {
		expect(decideUpsert([step('email', [7]), step('phone', [8])])).toEqual({
			action: 'update',
			id: 7,
			by: 'email',
		});
		expect(decideUpsert([step('email', []), step('phone', ['p_8'])])).toEqual({
			action: 'update',
			id: 'p_8',
			by: 'phone',
		});
	});

	it('creates when nobody matches, and refuses when the row has nothing to match on', () => {
		expect(decideUpsert([step('email', []), step('phone', [])])).toEqual({ action: 'create' });
		expect(decideUpsert([step('email', [], []), step('phone', [], [])])).toEqual({
			action: 'noKeys',
		});
	});

	it('never picks one of several silently, whatever later kinds find', () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.oneof(fc.nat(), fc.string({ minLength: 1 })), { minLength: 2 }),
				fc.array(fc.nat()),
				(ids, later) => {
					const decision = decideUpsert([step('email', ids), step('phone', later)]);
					expect(decision).toEqual({ action: 'ambiguous', ids, by: 'email' });
				},
			),
		);
	});

	it('names the candidates plainly, at most ten of them', () => {
		expect(ambiguityMessage({ ids: ['p_1', 'p_7'], by: 'email' })).toBe(
			'2 people match this email (IDs p_1, p_7), so none was updated and nothing was sent: update one of them by its ID, or make the email unique',
		);
		const many = Array.from({ length: 25 }, (_, i) => i + 1);
		expect(ambiguityMessage({ ids: many, by: 'phone' })).toContain(
			'IDs 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 15 more',
		);
	});
});
