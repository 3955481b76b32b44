import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { readOutput, shapeRecord } from '../IntegrationService/actions/output';
import { connectionOf } from '../IntegrationService/actions/request';
import {
	DEFAULT_SETTINGS,
	MAX_PAGE_SIZE,
	newRun,
	redactRunError,
	serviceRequestPages,
	type ServiceContext,
} from '../IntegrationService/transport';
import { CREDENTIAL_TYPE } from '../shared/service';
import type { WatchedResource } from './properties';
import { CHANGES_PROPERTIES, WATCHED } from './properties';
import type { ChangeEvent, ChangeState } from './state';
import { MAX_AHEAD_MS, PollReading, stateFor, timeOf } from './state';

/** Where the state sits in the node's static data. */
const STATE_KEY = 'changes';
/** How many records a manual test run returns: the latest ones, as a sample. */
export const SAMPLE_SIZE = 5;

/**
 * The poll's contexts, in one place. The transport's requests and the action node's readers of
 * Connection ID and Output take a node run's context; a poll has the same getNode, getCredentials and
 * helpers, and its parameters are those of one item (getNodeParameter without an item index).
 */
function contextsOf(poll: IPollFunctions): { service: ServiceContext; item: IExecuteFunctions } {
	const item = {
		getNode: () => poll.getNode(),
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			poll.getNodeParameter(name, fallback),
	};
	return {
		service: poll as unknown as ServiceContext,
		item: item as unknown as IExecuteFunctions,
	};
}

/** The watched resource and the event, as the editor set them. */
function readSetting(poll: IPollFunctions): { resource: WatchedResource; event: ChangeEvent } {
	const value = poll.getNodeParameter('resource', 'person') as string;
	const resource = WATCHED.find((candidate) => candidate.value === value);
	if (!resource) throw new NodeOperationError(poll.getNode(), `Entity: unknown value "${value}"`);
	const event = poll.getNodeParameter('event', 'newOrUpdated');
	if (event !== 'new' && event !== 'newOrUpdated')
		throw new NodeOperationError(poll.getNode(), 'Event: must be New or New or Updated');
	return { resource, event };
}

/** The latest few records by the event's time (records without one after them): a manual run's sample. */
function keepLatest(
	sample: IDataObject[],
	record: IDataObject,
	time: (record: IDataObject) => number,
): void {
	sample.push(record);
	sample.sort((a, b) => time(b) - time(a));
	if (sample.length > SAMPLE_SIZE) sample.pop();
}

export class IntegrationServiceChangesTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Service Changes Trigger',
		name: 'integrationServiceChangesTrigger',
		icon: {
			light: 'file:../../icons/integrationServiceTrigger.svg',
			dark: 'file:../../icons/integrationServiceTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] + ": " + $parameter["resource"] }}',
		description:
			'Starts the workflow when records of an entity are created or updated, by reading the list on a schedule (no public URL needed)',
		defaults: { name: 'Integration Service Changes Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: CHANGES_PROPERTIES,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const { service, item } = contextsOf(this);
		const { resource, event } = readSetting(this);
		const connection = connectionOf(item, 0);
		const choice = readOutput(item, 0, this.getNodeParameter('simplify', true) !== false);
		const manual = this.getMode() === 'manual';
		const startedAt = Date.now();
		const latest = startedAt + MAX_AHEAD_MS;
		const credential = this.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '';
		const of = JSON.stringify([resource.value, event, connection.credentialId ?? '', credential]);
		// A manual run reads and saves no state; the active workflow's state is the node's static data.
		const before = manual ? undefined : stateFor(this.getWorkflowStaticData('node')[STATE_KEY], of);
		const reading = new PollReading(before, of, event, latest);
		const timeFor = (record: IDataObject) => timeOf(record, event, latest) ?? -Infinity;
		const fired: IDataObject[] = [];
		const run = newRun(DEFAULT_SETTINGS);
		try {
			await serviceRequestPages.call(
				service,
				0,
				{
					request: { method: 'GET', host: resource.host, path: resource.path, connection },
					pageSize: MAX_PAGE_SIZE,
					recordsKey: resource.listKey,
				},
				run,
				(records) => {
					for (const record of records) {
						if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
						if (manual) keepLatest(fired, record, timeFor);
						else if (reading.fires(record)) fired.push(record);
					}
				},
			);
		} catch (failure) {
			// Every error leaves redacted: the service's words may echo a secret.
			const error =
				failure instanceof NodeApiError || failure instanceof NodeOperationError
					? failure
					: new NodeOperationError(this.getNode(), failure as Error);
			await redactRunError(service, run, 0, error);
			throw error;
		}
		// Saved only now, the whole list read: a poll that failed leaves the state as it was.
		if (!manual && !commit(this.getWorkflowStaticData('node'), before, reading, startedAt))
			return null;
		if (fired.length === 0) return null;
		const shaped = fired.map((record) => shapeRecord(record, choice));
		if (this.getNodeParameter('items', 'eachRecord') === 'perPoll')
			return [[{ json: { records: shaped, count: shaped.length } }]];
		return [shaped.map((json) => ({ json }))];
	}
}

/**
 * Saves the poll's state, unless another poll of this trigger saved since this one started (a poll
 * that outlasted the interval): that one covered the same ground, and this one's records are dropped.
 */
function commit(
	staticData: IDataObject,
	before: ChangeState | undefined,
	reading: PollReading,
	startedAt: number,
): boolean {
	const saved = stateFor(staticData[STATE_KEY], reading.of);
	if (saved?.gen !== before?.gen) return false;
	staticData[STATE_KEY] = reading.next(Date.now() - startedAt) as unknown as IDataObject;
	return true;
}
