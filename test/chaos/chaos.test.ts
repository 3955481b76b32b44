/**
 * A chaos service: for every request a seeded generator picks a fault (server errors, 429, 409, a
 * reset after the request was read, silence after the headers, a slow drip, an answer that is not
 * HTTP, oversized headers, a redirect to another origin, a 2xx that is no record, an error page that
 * echoes the token in many encodings) or a healthy answer. Creates (POST), updates (PUT) and Return
 * All (GET) run through n8n's engine in both credential modes, and after every run:
 *  - no POST twice: after an answer that may mean it was processed, an item's create is never sent again;
 *  - no attempt past its deadline: every connection is let go within the Timeout plus a margin;
 *  - no secret in any output or error, in any encoding, including every token the service saw;
 *  - every item accounted for: one output item each, paired to it, a success only after a healthy answer;
 *  - the other origin received nothing.
 * Seeds are fixed (CHAOS_SEEDS=1,2,3 by default); CHAOS_SEEDS=1-200 soaks on demand. A failure names its
 * seed and the faults it drew, to replay it.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { startRawServer, type RawRequest, type RawServer } from '../hostile/raw-server';
import { mulberry32 } from '../sandbox/seed';

const TIMEOUT_S = 1;
/** How much later than its deadline an attempt may let go of its connection on a loaded 2-core machine. */
const LATE_MS = 1500;
const ITEMS = 8;
const TOKEN = 'chaos/Token+=&<x>"-0123456789';
const CLIENT_SECRET = 'chaos/Secret+=&<y>"-abcdefghij';
const REQUEST_OPTIONS = {
	maxAttempts: 3,
	initialRetryDelay: 5,
	maxTotalWait: 5,
	timeout: TIMEOUT_S,
	maxRequestsPerSecond: 0,
	concurrency: 4,
};

function seedsFromEnv(): number[] {
	const spec = process.env.CHAOS_SEEDS ?? '1,2,3';
	return spec.split(',').flatMap((part) => {
		const [from, to] = part.split('-').map(Number);
		return to === undefined
			? [from]
			: Array.from({ length: to - from + 1 }, (_v, index) => from + index);
	});
}

type Fault =
	| 'healthy'
	| '500'
	| '503'
	| '429'
	| '409'
	| 'reset after read'
	| 'silent after headers'
	| 'slow drip'
	| 'not HTTP'
	| 'oversized headers'
	| 'redirect away'
	| '2xx not a record'
	| 'echo token';
const FAULTS: Fault[] = [
	'healthy',
	'healthy',
	'healthy',
	'500',
	'503',
	'429',
	'409',
	'reset after read',
	'silent after headers',
	'slow drip',
	'not HTTP',
	'oversized headers',
	'redirect away',
	'2xx not a record',
	'echo token',
];
/** Answers after which a POST may have been processed: it must never be sent again. */
const MAY_HAVE_PROCESSED = new Set<Fault>([
	'healthy',
	'500',
	'503',
	'reset after read',
	'silent after headers',
	'slow drip',
	'not HTTP',
	'oversized headers',
	'redirect away',
	'2xx not a record',
	'echo token',
]);

interface Drawn {
	request: RawRequest;
	fault: Fault;
}

const head = (status: string, headers: string[], body: string) =>
	`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n${body}`;

function healthyBody(request: RawRequest, count: number): string {
	if (request.method === 'GET') {
		const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? 1);
		const next = page < 3 ? { nextLink: `/api/people?page=${page + 1}` } : {};
		return JSON.stringify({
			people: [1, 2].map((n) => ({ id: `p-${page}-${n}` })),
			_metadata: next,
		});
	}
	return JSON.stringify({ id: `r-${count}`, ...(JSON.parse(request.body || '{}') as IDataObject) });
}

function answer(
	fault: Fault,
	request: RawRequest,
	socket: import('net').Socket,
	count: number,
	foreign: string,
): void {
	const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
	switch (fault) {
		case 'healthy':
			return void socket.end(
				head(request.method === 'POST' ? '201 Created' : '200 OK', [], healthyBody(request, count)),
			);
		case '500':
		case '503':
			return void socket.end(head(`${fault} Error`, [], '{"error":"chaos"}'));
		case '429':
			return void socket.end(
				head('429 Too Many Requests', ['Retry-After: 0'], '{"error":"slow down"}'),
			);
		case '409':
			return void socket.end(head('409 Conflict', [], '{"error":"not ready"}'));
		case 'reset after read':
			return void socket.destroy();
		case 'silent after headers':
			return void socket.write(
				'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"id":',
			);
		case 'slow drip': {
			socket.write(
				'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n',
			);
			const drip = setInterval(
				() => (socket.destroyed ? clearInterval(drip) : socket.write(' ')),
				100,
			);
			socket.on('close', () => clearInterval(drip));
			return;
		}
		case 'not HTTP':
			return void socket.end('SSH-2.0-chaos\r\n\r\n');
		case 'oversized headers':
			return void socket.end(head('200 OK', [`X-Padding: ${'x'.repeat(40_000)}`], '{}'));
		case 'redirect away':
			return void socket.end(head('302 Found', [`Location: ${foreign}/api/people`], '{}'));
		case '2xx not a record':
			return void socket.end(head('200 OK', [], '[1,2,3]'));
		case 'echo token': {
			const echo = [
				token,
				Buffer.from(token).toString('base64'),
				Buffer.from(token).toString('base64url'),
				Buffer.from(token).toString('hex'),
				encodeURIComponent(token),
			];
			return void socket.end(
				head('500 Internal Server Error', [], JSON.stringify({ error: echo[count % echo.length] })),
			);
		}
	}
}

/** Every form in which a secret must not appear in what the run produced. */
function forms(secret: string): string[] {
	const bytes = Buffer.from(secret);
	return [
		secret,
		encodeURIComponent(secret),
		bytes.toString('base64'),
		bytes.toString('base64url'),
		bytes.toString('base64').replace(/=+$/, ''),
		bytes.toString('hex'),
	];
}

interface Scenario {
	label: string;
	method: 'POST' | 'PUT' | 'GET';
	parameters: INodeParameters;
	/** Which item a request belongs to (POST and PUT), from its body or URL. */
	itemOf?: (request: RawRequest) => number;
}

const SCENARIOS: Scenario[] = [
	{
		label: 'Person › Create',
		method: 'POST',
		parameters: { resource: 'person', operation: 'create', firstName: '={{ $json.name }}' },
		itemOf: (request) => Number(/item-(\d+)/.exec(request.body)?.[1]),
	},
	{
		label: 'Borrower › Update',
		method: 'PUT',
		parameters: {
			resource: 'borrower',
			operation: 'update',
			borrowerId: '={{ $json.name }}',
			updateFields: { name: 'Jane Roe' },
		},
		itemOf: (request) => Number(/item-(\d+)/.exec(request.url)?.[1]),
	},
	{
		label: 'Person › Get Many, Return All',
		method: 'GET',
		parameters: { resource: 'person', operation: 'getAll', returnAll: true },
	},
];

let service: RawServer;
let foreign: RawServer;
beforeAll(async () => {
	[service, foreign] = await Promise.all([startRawServer(), startRawServer()]);
});
afterAll(async () => await Promise.all([service.close(), foreign.close()]));

function credentials(mode: 'accessToken' | 'clientCredentials'): ICredentialDataDecryptedObject {
	const origin = service.origin;
	const auth: ICredentialDataDecryptedObject =
		mode === 'accessToken'
			? { authentication: 'accessToken', accessToken: TOKEN }
			: {
					authentication: 'clientCredentials',
					clientId: 'client-1',
					clientSecret: CLIENT_SECRET,
					userId: 'tenant-1',
				};
	return {
		crmUrl: origin,
		universalUrl: origin,
		losUrl: origin,
		calendarUrl: origin,
		credentialId: 'cred-chaos',
		...auth,
	};
}

async function settled(ms = 4000): Promise<void> {
	const until = Date.now() + ms;
	while (service.openConnections() > 0 && Date.now() < until)
		await new Promise((resolve) => setTimeout(resolve, 20));
}

function checkInvariants(
	scenario: Scenario,
	drawn: Drawn[],
	result: RunResult,
	mode: string,
): void {
	// The other origin received nothing.
	expect(foreign.requests).toHaveLength(0);

	// No attempt past its deadline, and nothing left open.
	expect(service.openConnections()).toBe(0);
	for (const { request, fault } of drawn) {
		const held = (request.closedAt ?? Infinity) - request.readAt;
		if (held > TIMEOUT_S * 1000 + LATE_MS)
			throw new Error(
				`a "${fault}" attempt held its connection ${held} ms (Timeout ${TIMEOUT_S} s)`,
			);
	}

	// No secret in any output or error, including every token the service saw.
	const output = JSON.stringify({
		items: result.items,
		errorItems: result.errorItems,
		error: result.error,
	});
	const seenTokens = new Set(
		drawn.map(({ request }) => String(request.headers.authorization ?? '').replace(/^Bearer /, '')),
	);
	for (const secret of [TOKEN, CLIENT_SECRET, ...seenTokens]) {
		for (const form of forms(secret))
			if (form.length >= 8 && output.includes(form))
				throw new Error(`a form of a secret is in the output (${mode})`);
	}

	if (scenario.method === 'GET') {
		// One run, one item: the whole list, or one error item.
		const failed = result.items.filter((item) => typeof item.json.error === 'string');
		expect(failed.length <= 1).toBe(true);
		if (failed.length === 0)
			expect(result.items.map((item) => item.json.id)).toEqual([
				'p-1-1',
				'p-1-2',
				'p-2-1',
				'p-2-2',
				'p-3-1',
				'p-3-2',
			]);
		return;
	}

	// Every item accounted for, in order; a success only after a healthy answer to its last attempt.
	expect(result.items.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: ITEMS }, (_v, item) => ({ item })),
	);
	for (let item = 0; item < ITEMS; item++) {
		const attempts = drawn.filter(({ request }) => scenario.itemOf?.(request) === item);
		const succeeded = typeof result.items[item].json.error !== 'string';
		if (succeeded) expect(attempts[attempts.length - 1]?.fault).toBe('healthy');
		if (scenario.method === 'POST') {
			// No POST twice: nothing follows an attempt after which it may have been processed.
			const firstUncertain = attempts.findIndex(({ fault }) => MAY_HAVE_PROCESSED.has(fault));
			if (firstUncertain >= 0 && firstUncertain < attempts.length - 1) {
				throw new Error(`item ${item} was sent again after "${attempts[firstUncertain].fault}"`);
			}
		}
	}
}

const seeds = seedsFromEnv();

describe.each(['accessToken', 'clientCredentials'] as const)('chaos, %s', (mode) => {
	describe.each(SCENARIOS.map((scenario) => [scenario.label, scenario] as const))(
		'%s',
		(_label, scenario) => {
			test.each(seeds)(
				'seed %i: every invariant holds',
				async (seed) => {
					service.requests.length = 0;
					foreign.requests.length = 0;
					const random = mulberry32(
						seed * 1000 + SCENARIOS.indexOf(scenario) * 10 + (mode === 'accessToken' ? 0 : 1),
					);
					const drawn: Drawn[] = [];
					service.script((request, socket, count) => {
						const fault = FAULTS[Math.floor(random() * FAULTS.length)];
						drawn.push({ request, fault });
						answer(fault, request, socket, count, foreign.origin);
					});
					const items = Array.from({ length: ITEMS }, (_v, index) => ({ name: `item-${index}` }));
					const result = await runNode({
						parameters: { ...scenario.parameters, requestOptions: REQUEST_OPTIONS },
						credentials: credentials(mode),
						items: scenario.method === 'GET' ? [{}] : items,
						onError: 'continueRegularOutput',
					});
					await settled();
					try {
						checkInvariants(scenario, drawn, result, mode);
					} catch (error) {
						const faults = drawn
							.map(({ request, fault }) => `${request.method} ${request.url}: ${fault}`)
							.join('\n');
						throw new Error(
							`seed ${seed} (${mode}, ${scenario.label}): ${(error as Error).message}\nfaults drawn:\n${faults}`,
						);
					}
				},
				30_000,
			);
		},
	);
});
