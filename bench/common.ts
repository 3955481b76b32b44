/**
 * Small pieces shared by the benchmark's orchestrator (run.ts) and its measuring child process
 * (worker.ts): the sandbox connection details, a plain HTTP client for its control endpoints, and
 * where the package lives.
 */
import http from 'http';

export { PACKAGE_NAME, packageRoot } from '../test/harness/package-root';

/** What the sandbox's `--json` line tells us (test/sandbox/cli.ts). */
export interface SandboxInfo {
	urls: { crm: string; universal: string; los: string; calendar: string };
	token: string;
	credentialId: string;
}

const controlAgent = new http.Agent({ keepAlive: false });

/** Calls a sandbox control endpoint (/__sandbox/...; no auth, no latency) and returns its JSON. */
export function control<T = unknown>(
	info: SandboxInfo,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const req = http.request(
			`${info.urls.crm}${path}`,
			{
				method,
				agent: controlAgent,
				headers:
					payload === undefined
						? {}
						: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					if ((res.statusCode ?? 0) >= 300) {
						reject(new Error(`sandbox control ${method} ${path}: HTTP ${res.statusCode} ${text}`));
						return;
					}
					try {
						resolve(JSON.parse(text) as T);
					} catch (error) {
						reject(error as Error);
					}
				});
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/** What a measuring child process reports, as one line `BENCH_RESULT {json}` on its stdout. */
export interface WorkerResult {
	task: string;
	wallMs: number;
	/** The measured run on the monotonic clock (µs), the clock of a --cpu-prof profile's timestamps. */
	monotonicStartUs: number;
	monotonicEndUs: number;
	requests: number;
	failedRequests: number;
	items: number;
	errorItems: number;
	/** RSS right before the measured run (after load, warm-up and GC). */
	baselineRss: number;
	/** Highest RSS seen during the measured run (sampled, and the kernel's high-water mark). */
	peakRss: number;
	/** Bytes of JSON.stringify of the records the run holds at its end (lists only). */
	jsonBytes?: number;
}

export const RESULT_PREFIX = 'BENCH_RESULT ';
