/**
 * nodes/IntegrationService/actions/request.ts: the Request Options the editor shows are the settings
 * a run uses: the bounds are one table (REQUEST_BOUNDS), and this holds its defaults equal to the
 * transport's DEFAULT_SETTINGS.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	readRequestOptions,
	runsAsTool,
	TOOL_MAX_ITEM_MS,
} from '../../nodes/IntegrationService/actions/request';
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
			maxTimePerItem: 7,
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
			maxItemMs: 7000,
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
		[
			{ maxTimePerItem: 3601 },
			'Request Options › Max Time per Item: must be between 0 and 3600, got 3601',
		],
		[{ maxTimePerItem: -1 }, 'Request Options › Max Time per Item: must be between 0 and 3600'],
	])('refuses %j, naming the option', (given, message) => {
		const error = thrownBy(() => readRequestOptions(fakeExecuteContext({ requestOptions: given })));
		expect(error.message).toContain(message);
	});
});

describe('Max Time per Item when it is 0 (the default)', () => {
	const asNode = (type: string, isToolExecution?: boolean, given: IDataObject = {}) => {
		const ctx = fakeExecuteContext({ requestOptions: given });
		const node = { ...ctx.getNode(), type };
		return Object.assign(ctx, {
			getNode: () => node,
			...(isToolExecution === undefined ? {} : { isToolExecution: () => isToolExecution }),
		});
	};
	const WORKFLOW = 'n8n-nodes-integration-service.integrationService';
	const TOOL = 'n8n-nodes-integration-service.integrationServiceTool';

	it.each([
		['in a workflow', 0, WORKFLOW, false],
		["as the AI Agent's tool (the Tool node type, run as an ordinary node)", 45_000, TOOL, false],
		["as the MCP Server Trigger's tool (a context that says it is one)", 45_000, TOOL, true],
		['in a context that says it runs a tool, whatever the type', 45_000, WORKFLOW, true],
	])('%s: %i ms', (_where, expected, type, isToolExecution) => {
		expect(runsAsTool(asNode(type, isToolExecution))).toBe(expected > 0);
		expect(readRequestOptions(asNode(type, isToolExecution)).settings.maxItemMs).toBe(expected);
	});

	it('is what the option says once it is set, as a tool too', () => {
		const { settings } = readRequestOptions(asNode(TOOL, true, { maxTimePerItem: 600 }));
		expect(settings.maxItemMs).toBe(600_000);
		expect(TOOL_MAX_ITEM_MS).toBeLessThan(60_000);
	});
});
