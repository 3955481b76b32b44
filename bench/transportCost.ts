/**
 * The transport's own CPU per request, without HTTP: `serviceRequest` against a context whose request
 * helper answers at once with a stream (as n8n hands our `encoding: 'stream'` answers over), for a
 * create (a ~1 KB record) and a list page (100 people, ~150 KB). Two builds side by side, interleaved,
 * so that a loaded machine slows both alike: this one, and `TRANSPORT_BEFORE` (another build's
 * dist/nodes/IntegrationService/transport), e.g. the one before a change.
 *
 *   npm run build:tools && TRANSPORT_BEFORE=<path> node build/bench/transportCost.js [rounds] [requests]
 */
import { Readable } from 'stream';

import { deepCopy } from 'n8n-workflow';

import type * as Transport from '../nodes/IntegrationService/transport';

const CREDENTIALS = {
	crmUrl: 'https://crm.test',
	universalUrl: 'https://u.test',
	losUrl: 'https://los.test',
	calendarUrl: 'https://cal.test',
	credentialId: 'cred-1',
	authentication: 'accessToken',
	accessToken: 'sandbox-token-0123456789abcdef',
	signingSecret: 'sandbox-client-secret-0123456789',
};

function person(i: number) {
	return {
		id: `p_${i}`,
		name: `Zoe Jones ${i}`,
		firstName: 'Zoe',
		lastName: `Jones ${i}`,
		stage: 'Closed',
		tags: ['first-time', 'referral'],
		addresses: [
			{ type: 'home', street: `${i} Hill Ct`, city: 'Austin', state: 'TX', code: '78701' },
		],
		emails: [{ value: `zoe.jones.${i}@example.test`, type: 'work', isPrimary: true }],
		phones: [{ value: `+1 512 555 ${String(i).padStart(4, '0')}`, type: 'mobile' }],
		background: 'Met at the open house; wants a three-bedroom close to schools. '.repeat(12),
		created: '2026-01-02T03:04:05Z',
		updated: '2026-01-02T03:04:05Z',
	};
}

const RECORD = Buffer.from(JSON.stringify(person(1)));
const PAGE = Buffer.from(
	JSON.stringify({
		_metadata: {
			collection: 'people',
			total: 1_000_000,
			nextLink: 'https://crm.test/api/people?next=c2s_e4ztLBXUbM&limit=100',
		},
		people: Array.from({ length: 100 }, (_, i) => person(i)),
	}),
);

function context(body: Buffer) {
	const node = {
		id: 'n',
		name: 'n',
		type: 't',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { integrationServiceApi: { id: 'c-1', name: 'Integration Service account' } },
	};
	return {
		// As n8n's node contexts do: getNode() hands out a deep copy of the node on every call.
		getNode: () => deepCopy(node),
		getCredentials: async () => CREDENTIALS,
		helpers: {
			httpRequestWithAuthentication: async () => ({
				statusCode: 200,
				headers: { 'content-type': 'application/json; charset=utf-8' },
				body: Readable.from([body], { objectMode: false }),
			}),
		},
	};
}

async function perRequestUs(transport: typeof Transport, body: Buffer, requests: number) {
	const run = transport.newRun({ ...transport.DEFAULT_SETTINGS, maxRequestsPerSecond: 0 });
	const ctx = context(body) as unknown as Parameters<typeof transport.serviceRequest>[0] & object;
	const request = {
		method: 'GET' as const,
		host: 'crm' as const,
		path: ['people'],
		connection: transport.CREDENTIAL_DEFAULT,
	};
	const start = process.cpuUsage();
	for (let i = 0; i < requests; i++)
		await transport.serviceRequest.call(ctx as never, i, request, run);
	const used = process.cpuUsage(start);
	return (used.user + used.system) / requests;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
	const [rounds = 15, requests = 300] = process.argv.slice(2).map(Number);
	const builds: Record<string, typeof Transport> = {
		after: require('../nodes/IntegrationService/transport') as typeof Transport,
	};
	if (process.env.TRANSPORT_BEFORE)
		builds.before = require(process.env.TRANSPORT_BEFORE) as typeof Transport;
	const samples: Record<string, number[]> = {};
	for (let round = -1; round < rounds; round++) {
		for (const [what, body] of [
			['create (1 KB record)', RECORD],
			['list page (150 KB)', PAGE],
		] as const) {
			// The order turns every round: the build measured first was measured slower, same code or not.
			const order = Object.entries(builds);
			if (round % 2 !== 0) order.reverse();
			for (const [name, transport] of order) {
				const us = await perRequestUs(
					transport,
					body,
					what.startsWith('list') ? requests / 10 : requests,
				);
				// Round -1 warms the JIT up and is not counted.
				if (round >= 0) (samples[`${what} ${name}`] ??= []).push(us);
			}
		}
	}
	console.log(
		`${rounds} rounds; CPU µs per request of the transport alone (no HTTP); page ${PAGE.length} bytes`,
	);
	for (const [name, values] of Object.entries(samples))
		console.log(
			`${name.padEnd(30)} median ${median(values).toFixed(0).padStart(6)}  range ${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`,
		);
}

void main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
