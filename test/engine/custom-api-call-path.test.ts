/**
 * Custom API Call's Path when it mixes typed text and expressions, through n8n's engine (real
 * expressions over real input items) against a scripted server that records the raw request target:
 * the `/` typed in the Path separate segments, and whatever an expression gives stays inside its
 * segment, sent exactly, or the item is refused before anything is sent.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.PROPERTY_SEED ?? 28);

const service = useHostile();
beforeEach(() => service.script((_request, res) => sendJson(res, 200, { ok: true })));

const ONE_AT_A_TIME = { concurrency: 1, maxRequestsPerSecond: 0, maxAttempts: 1 };

async function sendPath(
	path: string,
	items: IDataObject[] = [{}],
	method = 'DELETE',
): Promise<RunResult> {
	return await runNode({
		credentials: credentialsFor(service.origin),
		items,
		parameters: {
			resource: 'customApiCall',
			operation: 'send',
			host: 'los',
			method,
			path,
			requestOptions: ONE_AT_A_TIME,
		},
		onError: 'continueRegularOutput',
	});
}

/** The raw targets (paths, as sent) of what reached the server. */
const targets = () => service.received.map((request) => `${request.method} ${request.url}`);

describe('a value from an expression stays inside its segment', () => {
	test('an item value with "/" or "%41" is one segment, sent exactly (issue 28)', async () => {
		const result = await sendPath('=loans/{{ $json.loanId }}/documents', [
			{ loanId: '7/notes/9' },
			{ loanId: 'A%41' },
			{ loanId: 'a?b#c' },
			{ loanId: 'loan 1 ü' },
			{ loanId: 7 },
		]);
		expect(result.items.map((item) => item.json)).toEqual(Array(5).fill({ ok: true }));
		expect(targets()).toEqual([
			'DELETE /api/loans/7%2Fnotes%2F9/documents',
			'DELETE /api/loans/A%2541/documents',
			'DELETE /api/loans/a%3Fb%23c/documents',
			'DELETE /api/loans/loan%201%20%C3%BC/documents',
			'DELETE /api/loans/7/documents',
		]);
	});

	test('typed text keeps its rule next to a value: its parts are decoded once, its slashes split', async () => {
		await sendPath('= /loans/loan%20{{ $json.a }}{{ $json.b }}/x%2Ey/ ', [{ a: '%2F', b: '/..' }]);
		expect(targets()).toEqual(['DELETE /api/loans/loan%20%252F%2F../x.y']);
	});

	test('an expression with "/" in a string literal, and an escaped }} inside one, stay one segment', async () => {
		await sendPath('=loans/{{ $json.id + "/notes" }}/{{ "a\\}}b" }}', [{ id: 'l-1' }]);
		expect(targets()).toEqual(['DELETE /api/loans/l-1%2Fnotes/a%7D%7Db']);
	});

	test('a GET pages under the path as sent', async () => {
		await sendPath('=loans/{{ $json.id }}/documents', [{ id: 'a/b' }], 'GET');
		expect(targets()).toEqual(['GET /api/loans/a%2Fb/documents?limit=50&offset=0']);
	});

	test.each<[string, IDataObject, string]>([
		[
			'=loans/{{ $json.loanId }}/documents',
			{ loanId: '..' },
			'Path: part 2 ({{ $json.loanId }} gives "..") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'=loans/{{ $json.loanId }}',
			{ loanId: '.' },
			'Path: part 2 ({{ $json.loanId }} gives ".") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'=loans/%2e{{ $json.loanId }}',
			{ loanId: '.' },
			'Path: part 2 (%2e{{ $json.loanId }} gives "..") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'=loans/../{{ $json.loanId }}',
			{ loanId: 'l-1' },
			'Path: part 2 ("..") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		['=loans/%20/{{ $json.loanId }}', { loanId: 'l-1' }, 'Path: part 2 (%20) is empty (item 0)'],
		[
			'=loans/{{ $json.loanId }}/documents',
			{ loanId: '' },
			'Path: part 2 ({{ $json.loanId }}) is empty (item 0)',
		],
		[
			'=loans/{{ $json.loanId }}',
			{ loanId: '  ' },
			'Path: part 2 ({{ $json.loanId }}) is empty (item 0)',
		],
		// A missing value: today's n8n would send DELETE /api/loans, the whole collection.
		[
			'=loans/{{ $json.loanId }}',
			{},
			'Path: {{ $json.loanId }} gives no value (undefined) (item 0)',
		],
		[
			'=loans/{{ $json.loanId }}',
			{ loanId: null },
			'Path: {{ $json.loanId }} gives no value (null) (item 0)',
		],
		[
			'=loans/{{ $json.loanId }}',
			{ loanId: { id: 1 } },
			'Path: {{ $json.loanId }} gives an object or a list, not text (item 0)',
		],
		[
			'=loans/{{ $json.loanId',
			{ loanId: 'l-1' },
			'Path: an expression ({{ $json.loanId) has no closing }} (item 0)',
		],
		[
			'=https://evil.test/{{ $json.loanId }}',
			{ loanId: 'l-1' },
			'Path: give a path relative to /api, not a URL (item 0)',
		],
		[
			'=/api/loans/{{ $json.loanId }}',
			{ loanId: 'l-1' },
			'Path: is relative to /api already: write loans, not /api/loans (item 0)',
		],
		[
			'=loans//{{ $json.loanId }}',
			{ loanId: 'l-1' },
			'Path: has an empty part (two slashes in a row) (item 0)',
		],
		[
			'=loans/{{ $json.loanId }}?x=1',
			{ loanId: 'l-1' },
			'Path: must not contain ? or #: put query parameters in Query Parameters (item 0)',
		],
		[
			'=loans/a%2Fb{{ $json.loanId }}',
			{ loanId: 'l-1' },
			'Path: part 2 ("a%2Fb") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'=loans/%zz{{ $json.loanId }}',
			{ loanId: 'l-1' },
			'Path: part 2 ("%zz") is not valid percent-encoding (item 0)',
		],
	])('%s with %j is refused, nothing sent', async (path, item, message) => {
		const result = await sendPath(path, [item]);
		expect(result.items.map((output) => output.json.error)).toEqual([message]);
		expect(service.received).toHaveLength(0);
	});
});

describe('a Path that is one expression and nothing else is computed whole', () => {
	test.each([
		['={{ $json.path }}', { path: 'loans/7/documents' }, 'DELETE /api/loans/7/documents'],
		['=  {{ $json.path }} ', { path: '/loans/a%2Fx/' }, undefined],
		['={{ "loans/" + $json.id }}', { id: 'l%201' }, 'DELETE /api/loans/l%201'],
	])('%s with %j', async (path, item, sent) => {
		const result = await sendPath(path, [item]);
		if (sent === undefined) {
			expect(result.items[0].json.error).toBe(
				'Path: part 2 ("a%2Fx") would leave the path it names; "." and ".." are not allowed (item 0)',
			);
			expect(service.received).toHaveLength(0);
		} else expect(targets()).toEqual([sent]);
	});
});

/** Typed text of a segment: what a person types around an expression (no /, ?, #, % or \). */
const typedText = fc.stringOf(fc.constantFrom('a', 'b', '-', '_', '.', '~', '1', 'é', ' '), {
	maxLength: 3,
});
/** Typed text around an expression: none at all half of the time. */
const aroundValue = fc.oneof(fc.constant(''), typedText);
/** Any value an input row could hold, with the characters that could move a path weighted up. */
const anyValue = fc.oneof(
	fc.constantFrom('', ' ', '.', '..', '%2e'),
	fc.fullUnicodeString({ maxLength: 8 }),
	fc.string16bits({ maxLength: 4 }),
	fc
		.array(
			fc.constantFrom('/', '%', '%2F', '%41', '%2e', '..', '.', '?', '#', ' ', '\\', 'a', '東'),
			{ maxLength: 5 },
		)
		.map((parts) => parts.join('')),
);
const segmentShape = fc.oneof(
	fc.record({
		typed: typedText.filter((text) => text.trim() !== '' && text !== '.' && text !== '..'),
	}),
	fc.record({ before: aroundValue, after: aroundValue }),
);

const isWellFormed = (text: string) => {
	try {
		encodeURIComponent(text);
		return true;
	} catch {
		return false;
	}
};

test(`any value in any segment arrives as exactly that segment or is refused before sending (seed ${SEED}, ${RUNS} runs)`, async () => {
	let sent = 0;
	let refused = 0;
	await fc.assert(
		fc.asyncProperty(
			fc.array(segmentShape, { minLength: 1, maxLength: 4 }),
			fc.array(fc.array(anyValue, { minLength: 4, maxLength: 4 }), {
				minLength: 1,
				maxLength: 4,
			}),
			async (shape, rows) => {
				service.received.length = 0;
				const path = `=${shape
					.map((segment, index) =>
						'typed' in segment
							? encodeURIComponent(segment.typed)
							: `${encodeURIComponent(segment.before)}{{ $json.v${index} }}${encodeURIComponent(segment.after)}`,
					)
					.join('/')}`;
				// Not a Path computed whole (one expression alone, tested above), nor a first typed "api".
				const [first] = shape;
				fc.pre(!(shape.length === 1 && 'before' in first && first.before + first.after === ''));
				fc.pre(!('typed' in first) || first.typed !== 'api');
				const items = rows.map((values) =>
					Object.fromEntries(values.map((value, index) => [`v${index}`, value])),
				);
				const result = await sendPath(path, items);
				const requests = [...service.received];
				result.items.forEach((output, item) => {
					const expected = shape.map((segment, index) =>
						'typed' in segment ? segment.typed : segment.before + rows[item][index] + segment.after,
					);
					const refusable = expected.some(
						(segment) =>
							segment.trim() === '' ||
							segment === '.' ||
							segment === '..' ||
							!isWellFormed(segment),
					);
					if (output.json.error !== undefined) {
						refused++;
						expect(refusable).toBe(true);
						expect(output.json.error).toMatch(new RegExp(`^Path: .* \\(item ${item}\\)$`, 's'));
						return;
					}
					sent++;
					expect(refusable).toBe(false);
					const request = requests.shift();
					expect(request?.url.startsWith('/api/')).toBe(true);
					const arrived = request!.url.slice('/api/'.length).split('/').map(decodeURIComponent);
					expect(arrived).toEqual(expected);
				});
				expect(requests).toEqual([]);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
	// Both outcomes were exercised.
	expect(sent).toBeGreaterThan(50);
	expect(refused).toBeGreaterThan(10);
});
