/**
 * An attempt ends when its answer is read, also on an n8n whose `sleep` ignores its abort signal (the
 * n8n-workflow of n8n 1.85 to 2.16): there the attempt's deadline timer cannot be cancelled, and waiting
 * for it made every request last its whole Timeout (30 s by default) in the real app.
 *
 * On jest's fake clock: an attempt that waited for its deadline timer would settle only once the fake
 * time reached the Timeout, so "settled with no fake time passed" holds exactly, at any machine speed.
 */
import { DEFAULT_SETTINGS, newRun } from '../../nodes/IntegrationService/transport';
import type { ServiceContext } from '../../nodes/IntegrationService/transport/run';
import { sendAttempt } from '../../nodes/IntegrationService/transport/attempt';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	// n8n-workflow 1.83 to 2.16: `sleep(ms)`, no signal (unref: its timer outlives the test by design).
	sleep: async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref()),
}));

const TIMEOUT_MS = 3000;

function contextAnswering(body: string): ServiceContext {
	return {
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequestWithAuthentication: async () => ({
				statusCode: 200,
				headers: { 'content-type': 'application/json' },
				body,
			}),
		},
	} as unknown as ServiceContext;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('sendAttempt on an n8n whose sleep ignores its signal', () => {
	it('returns the record as soon as the answer is read, not after the Timeout', async () => {
		const started = Date.now();
		let settled: { result: unknown; at: number } | undefined;
		const url = 'http://127.0.0.1:1/api/people/p_1';
		void sendAttempt(
			contextAnswering('{"id":"p_1"}'),
			newRun({ ...DEFAULT_SETTINGS, maxResponseBytes: 1024 }),
			{
				itemIndex: 0,
				method: 'GET',
				host: 'crm',
				url,
				options: { method: 'GET', url },
				tenant: 'tenant',
				forms: [],
				credentials: {},
				timeoutMs: TIMEOUT_MS,
			},
		).then((result) => (settled = { result, at: Date.now() }));
		// Up to the Timeout, not past it: waiting for the deadline timer would settle only at TIMEOUT_MS.
		await jest.advanceTimersByTimeAsync(TIMEOUT_MS - 1);
		expect(settled).toEqual({ result: { json: { id: 'p_1' } }, at: started });
	});
});
