/**
 * Starts the sandbox as a standalone process (for the demo, the benchmark and the real-n8n
 * end-to-end test). Usage:
 *
 *   node build/test/sandbox/cli.js [--port 8787] [--people 25] [--rows 3] [--big] [--latency 0]
 *                                  [--seed 1] [--paging nextLink|next|offset] [--host 127.0.0.1] [--json]
 *
 * --rows: seeded rows of each published CRM entity (users, teams, lists, smart lists, appointment
 * types and outcomes...). --big: enough to page in the editor's pickers, 2,000 people and 25 rows
 * (the demo, the e2e and the editor; tests that count rows keep the small seed).
 *
 * The four hosts listen on consecutive ports: crm = port, universal = port+1, los = port+2,
 * calendar = port+3 (--port 0 picks free ports). --json prints one machine-readable line instead of
 * the human summary. Runs until SIGINT or SIGTERM.
 */
import { CONTROL_USAGE } from './control';
import { HOST_NAMES, PagingStyle, SandboxOptions, startSandbox } from './server';

interface CliArgs {
	port: number;
	people: number;
	rows: number;
	latency: number;
	seed: number;
	paging: PagingStyle;
	host: string;
	json: boolean;
}

const USAGE =
	'usage: cli.js [--port 8787] [--people 25] [--rows 3] [--big] [--latency 0] [--seed 1] [--paging nextLink|next|offset] [--host 127.0.0.1] [--json]';

/** The big seed: pickers page through it (the list search reads 100 records a request). */
const BIG = { people: 2000, rows: 25 };

function fail(message: string): never {
	process.stderr.write(`${message}\n${USAGE}\n`);
	process.exit(2);
}

function parseArgs(argv: string[]): CliArgs {
	const args: CliArgs = {
		port: 8787,
		people: 25,
		rows: 3,
		latency: 0,
		seed: 1,
		paging: 'nextLink',
		host: '127.0.0.1',
		json: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const raw = argv[i];
		if (raw === '--help' || raw === '-h') {
			process.stdout.write(`${USAGE}\n`);
			process.exit(0);
		}
		if (raw === '--json') {
			args.json = true;
			continue;
		}
		if (raw === '--big') {
			args.people = Math.max(args.people, BIG.people);
			args.rows = Math.max(args.rows, BIG.rows);
			continue;
		}
		// Accept both "--name value" and "--name=value".
		const eq = raw.indexOf('=');
		const name = eq >= 0 ? raw.slice(0, eq) : raw;
		const value = eq >= 0 ? raw.slice(eq + 1) : argv[++i];
		if (value === undefined) fail(`missing value for ${name}`);
		const num = (): number => {
			const n = Number(value);
			if (!Number.isInteger(n) || n < 0) fail(`${name} must be a non-negative integer`);
			return n;
		};
		switch (name) {
			case '--port':
				args.port = num();
				if (args.port > 65532) fail('--port must leave room for four consecutive ports');
				break;
			case '--people':
				args.people = num();
				break;
			case '--rows':
				args.rows = num();
				break;
			case '--latency':
				args.latency = num();
				break;
			case '--seed':
				args.seed = num();
				break;
			case '--paging':
				if (value !== 'nextLink' && value !== 'next' && value !== 'offset')
					fail('--paging must be nextLink, next or offset');
				args.paging = value;
				break;
			case '--host':
				args.host = value;
				break;
			default:
				fail(`unknown option ${name}`);
		}
	}
	return args;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const ports: SandboxOptions['ports'] = {};
	HOST_NAMES.forEach((h, i) => {
		ports[h] = args.port === 0 ? 0 : args.port + i;
	});
	const sandbox = await startSandbox({
		people: args.people,
		crmRows: args.rows,
		latencyMs: args.latency,
		seed: args.seed,
		paging: args.paging,
		host: args.host,
		ports,
	});

	if (args.json) {
		process.stdout.write(
			`${JSON.stringify({
				urls: sandbox.urls,
				token: sandbox.token,
				clientId: sandbox.jwtIssuer,
				clientSecret: sandbox.jwtSecret,
				signingSecret: sandbox.signingSecret,
				credentialId: sandbox.defaultCredentialId,
				credentialIds: sandbox.credentialIds,
			})}\n`,
		);
	} else {
		const lines = [
			'Integration Service sandbox is running',
			`  CRM URL:            ${sandbox.urls.crm}`,
			`  Universal URL:      ${sandbox.urls.universal}`,
			`  LOS URL:            ${sandbox.urls.los}`,
			`  Calendar URL:       ${sandbox.urls.calendar}`,
			`  Access token:       ${sandbox.token}`,
			`  JWT client ID:      ${sandbox.jwtIssuer}`,
			`  JWT client secret:  ${sandbox.jwtSecret}`,
			'  JWT user/tenant ID: any non-empty string',
			`  Credential ID:      ${sandbox.defaultCredentialId}   (also known: ${sandbox.credentialIds.slice(1).join(', ') || 'none'})`,
			`  Seeded:             ${args.people} people under ${sandbox.defaultCredentialId}; ${args.rows} of each CRM record (users, teams, lists...), borrower b-1 and webhook w-1 under every credential`,
			`  Paging: ${args.paging}; latency: ${args.latency} ms; seed: ${args.seed}`,
			`  Webhook signing secret: ${sandbox.signingSecret}   (the client secret)`,
			...CONTROL_USAGE.map((line) => `  ${line}`),
			'Press Ctrl+C to stop.',
		];
		process.stdout.write(`${lines.join('\n')}\n`);
	}

	let stopping = false;
	const stop = (): void => {
		if (stopping) return;
		stopping = true;
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
	process.stderr.write(`sandbox failed to start: ${(err as Error).message}\n`);
	process.exit(1);
});
