/**
 * nodes/IntegrationService/actions/common.descriptions.ts: the Request Options the editor shows are the
 * settings a run uses. n8n's lint wants literal defaults in the UI, so this holds them equal to the
 * transport's DEFAULT_SETTINGS.
 */
import { readRequestOptions } from '../../nodes/IntegrationService/actions/common.descriptions';
import { DEFAULT_SETTINGS } from '../../nodes/IntegrationService/transport';
import { fakeExecuteContext, thrownBy } from './fakes';

describe('readRequestOptions', () => {
	it('with no option set, gives the transport defaults and 16 at once', () => {
		const { settings, concurrency } = readRequestOptions(
			fakeExecuteContext({ requestOptions: {} }),
		);
		expect(settings).toEqual(DEFAULT_SETTINGS);
		expect(concurrency).toBe(16);
	});

	it('converts seconds and megabytes to the units the transport uses', () => {
		const given = {
			maxAttempts: 2,
			maxTotalWait: 3,
			initialRetryDelay: 40,
			timeout: 5,
			maxResponseSize: 1.5,
			maxRequestsPerSecond: 0,
			concurrency: 1,
		};
		const { settings, concurrency } = readRequestOptions(
			fakeExecuteContext({ requestOptions: given }),
		);
		expect(settings).toEqual({
			maxAttempts: 2,
			maxTotalWaitMs: 3000,
			initialDelayMs: 40,
			timeoutMs: 5000,
			maxResponseBytes: 1.5 * 1024 * 1024,
			maxRequestsPerSecond: 0,
		});
		expect(concurrency).toBe(1);
	});

	it.each([
		[
			{ maxAttempts: 100000 },
			'Request Options › Max Attempts: must be between 1 and 20, got 100000',
		],
		[{ concurrency: 2.5 }, 'Request Options › Concurrency: must be a whole number, got 2.5'],
		[{ timeout: 0 }, 'Request Options › Timeout: must be between 1 and 600, got 0'],
	])('refuses %j, naming the option', (given, message) => {
		const error = thrownBy(() => readRequestOptions(fakeExecuteContext({ requestOptions: given })));
		expect(error.message).toContain(message);
	});
});
