/**
 * An attempt ends when its answer is read, also on an n8n whose `sleep` ignores its abort signal (the
 * n8n-workflow of n8n 1.85 to 2.16): there the attempt's deadline timer cannot be cancelled, and waiting
 * for it made every request last its whole Timeout (30 s by default) in the real app.
 */
import type { ServiceContext } from '../../nodes/IntegrationService/transport/attempt';
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

describe('sendAttempt on an n8n whose sleep ignores its signal', () => {
	it('returns the record as soon as the answer is read, not after the Timeout', async () => {
		const started = Date.now();
		const result = await sendAttempt(contextAnswering('{"id":"p_1"}'), {
			method: 'GET',
			url: 'http://127.0.0.1:1/api/people/p_1',
			options: { method: 'GET', url: 'http://127.0.0.1:1/api/people/p_1' },
			credentials: {},
			secretForms: [],
			timeoutMs: TIMEOUT_MS,
			maxResponseBytes: 1024,
			stoppedReason: () => undefined,
		});
		expect(result).toEqual({ json: { id: 'p_1' } });
		// Generous for a loaded machine, and still well under the Timeout it used to wait out.
		expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
	});
});
