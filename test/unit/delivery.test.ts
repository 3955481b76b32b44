/** nodes/IntegrationServiceTrigger/delivery.ts: signatures, events and deduplication (recordsOf: paging.test.ts). */
import { createHmac } from 'crypto';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	claimEvent,
	DEDUP_CAPACITY,
	eventKey,
	eventSelected,
	MAX_KEPT_ID_LENGTH,
	parseEvent,
	recentIds,
	rememberId,
	releaseEvent,
	signatureMatches,
} from '../../nodes/IntegrationServiceTrigger/delivery';

const PROPERTY = { seed: 19, numRuns: 200 };
const SECRET = 'whsec_unit_0123456789';
const BODY = Buffer.from(
	'{"eventId":"evt-1","event":"peopleCreated","resourceIds":["p-1"],"uri":"/api/people?id=p-1"}',
);

function hmac(secret: string, input: Buffer | string): Buffer {
	return createHmac('sha256', secret).update(input).digest();
}

/** The four accepted forms: over base64(body) or over the body, as hex or base64. */
function signatures(secret: string, body: Buffer): string[] {
	const overBase64 = hmac(secret, body.toString('base64'));
	const overBody = hmac(secret, body);
	return [
		overBase64.toString('hex'),
		overBase64.toString('base64'),
		overBody.toString('hex'),
		overBody.toString('base64'),
	];
}

/** A trigger key no other test uses: claims live in the module's memory for the whole file. */
let keys = 0;
const triggerKey = () => `workflow-${++keys}:Integration Service Trigger`;

describe('signatureMatches', () => {
	it.each([0, 1, 2, 3])('accepts signature form %i', (form) => {
		expect(signatureMatches(SECRET, BODY, signatures(SECRET, BODY)[form])).toBe(true);
	});

	it('accepts upper-case hex and surrounding white space', () => {
		const [hex, base64] = signatures(SECRET, BODY);
		expect(signatureMatches(SECRET, BODY, hex.toUpperCase())).toBe(true);
		expect(signatureMatches(SECRET, BODY, `  ${base64}\t`)).toBe(true);
	});

	it('refuses a wrong secret and a tampered body', () => {
		const tampered = Buffer.from(BODY.toString().replace('p-1', 'p-2'));
		for (const signature of signatures(SECRET, BODY)) {
			expect(signatureMatches('whsec_other', BODY, signature)).toBe(false);
			expect(signatureMatches(SECRET, tampered, signature)).toBe(false);
			expect(signatureMatches(SECRET, Buffer.concat([BODY, Buffer.from(' ')]), signature)).toBe(
				false,
			);
		}
	});

	it('refuses truncated, padded-off, prefixed or other-length digests', () => {
		const [hex, base64] = signatures(SECRET, BODY);
		expect(signatureMatches(SECRET, BODY, hex.slice(0, 63))).toBe(false);
		expect(signatureMatches(SECRET, BODY, hex.slice(0, 32))).toBe(false);
		expect(signatureMatches(SECRET, BODY, `${hex}00`)).toBe(false);
		expect(signatureMatches(SECRET, BODY, base64.replace(/=$/, ''))).toBe(false);
		expect(signatureMatches(SECRET, BODY, base64.slice(0, 20))).toBe(false);
		expect(signatureMatches(SECRET, BODY, `sha256=${hex}`)).toBe(false);
		expect(
			signatureMatches(SECRET, BODY, createHmac('sha512', SECRET).update(BODY).digest('hex')),
		).toBe(false);
		expect(
			signatureMatches(SECRET, BODY, createHmac('sha1', SECRET).update(BODY).digest('hex')),
		).toBe(false);
	});

	it('refuses a missing or empty header', () => {
		expect(signatureMatches(SECRET, BODY, undefined)).toBe(false);
		expect(signatureMatches(SECRET, BODY, '')).toBe(false);
		expect(signatureMatches(SECRET, BODY, '   ')).toBe(false);
	});

	it('property: every form matches its own body and secret, and no other secret', () => {
		const secret = fc.string({ minLength: 1, maxLength: 40 });
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 200 }), secret, secret, (bytes, right, wrong) => {
				fc.pre(right !== wrong);
				const body = Buffer.from(bytes);
				for (const signature of signatures(right, body)) {
					expect(signatureMatches(right, body, signature)).toBe(true);
					expect(signatureMatches(wrong, body, signature)).toBe(false);
				}
			}),
			PROPERTY,
		);
	});
});

describe('parseEvent', () => {
	it('reads an event', () => {
		expect(parseEvent(BODY)).toEqual({
			event: {
				eventId: 'evt-1',
				event: 'peopleCreated',
				resourceIds: ['p-1'],
				uri: '/api/people?id=p-1',
			},
		});
		expect(parseEvent(Buffer.from('{"eventId":"e","event":"x","extra":{"a":1}}'))).toEqual({
			event: { eventId: 'e', event: 'x', extra: { a: 1 } },
		});
	});

	it.each([
		['', 'The body is not valid JSON'],
		['{"eventId":', 'The body is not valid JSON'],
		['[{"eventId":"e","event":"x"}]', 'The body is not a JSON object'],
		['null', 'The body is not a JSON object'],
		['"text"', 'The body is not a JSON object'],
		['{"event":"x"}', 'The event has no "eventId"'],
		['{"eventId":"  ","event":"x"}', 'The event has no "eventId"'],
		['{"eventId":7,"event":"x"}', 'The event has no "eventId"'],
		['{"eventId":"e"}', 'The event has no "event"'],
		['{"eventId":"e","event":""}', 'The event has no "event"'],
		['{"eventId":"e","event":"x","uri":5}', 'The event\'s "uri" is not a string'],
		['{"eventId":"e","event":"x","resourceIds":"p-1"}', 'The event\'s "resourceIds" is not a list'],
	])('refuses %j', (body, problem) => {
		expect(parseEvent(Buffer.from(body))).toEqual({ problem });
	});
});

describe('eventSelected', () => {
	it('selects the events listed, or any with *', () => {
		expect(eventSelected(['peopleCreated'], 'peopleCreated')).toBe(true);
		expect(eventSelected(['peopleCreated', 'peopleUpdated'], 'peopleUpdated')).toBe(true);
		expect(eventSelected(['peopleCreated'], 'peopleUpdated')).toBe(false);
		expect(eventSelected(['*'], 'anything')).toBe(true);
		expect(eventSelected([], 'peopleCreated')).toBe(false);
		expect(eventSelected(['peopleCreated'], 'PeopleCreated')).toBe(false);
	});
});

describe('deduplication', () => {
	it('a claimed event is refused until it is released', () => {
		const key = triggerKey();
		const staticData: IDataObject = {};
		expect(claimEvent(key, staticData, 'e1')).toBe(true);
		expect(claimEvent(key, staticData, 'e1')).toBe(false);
		expect(claimEvent(key, staticData, 'e2')).toBe(true);
		releaseEvent(key, 'e1');
		expect(claimEvent(key, staticData, 'e1')).toBe(true);
		expect(claimEvent(key, staticData, 'e2')).toBe(false);
	});

	it('claims are per trigger', () => {
		const first = triggerKey();
		const second = triggerKey();
		expect(claimEvent(first, {}, 'shared')).toBe(true);
		expect(claimEvent(second, {}, 'shared')).toBe(true);
		releaseEvent(second, 'never-claimed');
		expect(claimEvent(first, {}, 'shared')).toBe(false);
	});

	it('an event remembered in the static data is refused, in a new process too', () => {
		const staticData: IDataObject = { recentEventIds: ['seen-before'] };
		expect(claimEvent(triggerKey(), staticData, 'seen-before')).toBe(false);
		expect(claimEvent(triggerKey(), staticData, 'new')).toBe(true);
	});

	it(`memory keeps the newest ${DEDUP_CAPACITY} claims`, () => {
		const key = triggerKey();
		for (let n = 0; n <= DEDUP_CAPACITY; n++) expect(claimEvent(key, {}, `id-${n}`)).toBe(true);
		// id-0 was the oldest and was dropped; id-1 is still held.
		expect(claimEvent(key, {}, 'id-1')).toBe(false);
		expect(claimEvent(key, {}, `id-${DEDUP_CAPACITY}`)).toBe(false);
		expect(claimEvent(key, {}, 'id-0')).toBe(true);
	});

	it('rememberId appends, moves a repeated id to the end, and assigns a new list', () => {
		const staticData: IDataObject = {};
		rememberId(staticData, 'a');
		rememberId(staticData, 'b');
		const before = staticData.recentEventIds;
		rememberId(staticData, 'a');
		expect(staticData.recentEventIds).toEqual(['b', 'a']);
		expect(staticData.recentEventIds).not.toBe(before);
	});

	it(`static data keeps at most the ${DEDUP_CAPACITY} newest ids`, () => {
		const staticData: IDataObject = {};
		for (let n = 0; n < DEDUP_CAPACITY + 5; n++) rememberId(staticData, `id-${n}`);
		const ids = recentIds(staticData);
		expect(ids).toHaveLength(DEDUP_CAPACITY);
		expect(ids[0]).toBe('id-5');
		expect(ids[DEDUP_CAPACITY - 1]).toBe(`id-${DEDUP_CAPACITY + 4}`);
	});

	it('recentIds reads only strings from a list', () => {
		expect(recentIds({ recentEventIds: ['a', 1, null, 'b', { id: 'c' }] })).toEqual(['a', 'b']);
		expect(recentIds({ recentEventIds: 'a,b' })).toEqual([]);
		expect(recentIds({})).toEqual([]);
	});

	it('property: static data ends with the last ids remembered, each once, at most the capacity', () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 30 }),
				(sequence) => {
					const staticData: IDataObject = {};
					for (const id of sequence) rememberId(staticData, id);
					const ids = recentIds(staticData);
					expect(new Set(ids).size).toBe(ids.length);
					expect(new Set(ids)).toEqual(new Set(sequence));
					if (sequence.length > 0) expect(ids[ids.length - 1]).toBe(sequence[sequence.length - 1]);
				},
			),
			PROPERTY,
		);
	});
});

describe('eventKey: what is remembered of an event ID', () => {
	test('an ID up to 128 characters is kept as it is; a longer one by its SHA-256 (property)', () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (a, b) => {
				const [ka, kb] = [eventKey(a), eventKey(b)];
				expect(ka.length).toBeLessThanOrEqual(MAX_KEPT_ID_LENGTH);
				if (a.length <= MAX_KEPT_ID_LENGTH && !a.startsWith('sha256:')) expect(ka).toBe(a);
				else expect(ka).toMatch(/^sha256:[0-9a-f]{64}$/);
				if (a !== b) expect(ka).not.toBe(kb);
			}),
			PROPERTY,
		);
	});

	test('a literal "sha256:<hex of X>" eventId never passes for the long X, either way round (property)', () => {
		const longId = fc.string({ minLength: MAX_KEPT_ID_LENGTH + 1, maxLength: 400 });
		fc.assert(
			fc.property(longId, fc.boolean(), (x, literalFirst) => {
				const literal = eventKey(x);
				expect(eventKey(literal)).not.toBe(eventKey(x));
				const staticData: IDataObject = {};
				const key = triggerKey();
				const [first, second] = literalFirst ? [literal, x] : [x, literal];
				expect(claimEvent(key, staticData, first)).toBe(true);
				rememberId(staticData, first);
				expect(claimEvent(triggerKey(), staticData, second)).toBe(true);
				expect(claimEvent(key, {}, second)).toBe(true);
			}),
			PROPERTY,
		);
	});

	test('a plain ID stored by the previous version still counts as seen', () => {
		const staticData: IDataObject = { recentEventIds: ['evt-1', 'x'.repeat(128)] };
		expect(claimEvent(triggerKey(), staticData, 'evt-1')).toBe(false);
		expect(claimEvent(triggerKey(), staticData, 'x'.repeat(128))).toBe(false);
	});

	test('a 1 MiB eventId is remembered in 71 characters and still recognised', () => {
		const staticData: IDataObject = {};
		const huge = 'x'.repeat(1024 * 1024);
		rememberId(staticData, huge);
		expect(recentIds(staticData)).toEqual([eventKey(huge)]);
		expect(eventKey(huge)).toHaveLength(71);
		expect(claimEvent('unit:long-id', staticData, huge)).toBe(false);
	});
});
