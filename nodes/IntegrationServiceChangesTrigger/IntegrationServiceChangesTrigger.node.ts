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
	type Connection,
	type PageRequest,
	type ServiceContext,
	type ServiceRun,
} from '../IntegrationService/transport';
import type { ListedResource } from '../shared/catalogue';
import { CREDENTIAL_TYPE, hostBaseUrl, isJsonObject } from '../shared/service';
import { CHANGES_PROPERTIES, WATCHED } from './properties';
import { MAX_AHEAD_MS, PollReading, stateFor, timeOf, type ChangeEvent } from './state';

const STATE_KEY = 'changes';
/** How many records a manual test run returns: the latest ones, as a sample. */
const SAMPLE_SIZE = 5;
/** Records per Page at a Time batch: what the pager's loop memory holds at most, whatever the list's size. */
const BATCH_RECORDS = 10 * MAX_PAGE_SIZE;

/** A poll as one item's context, for the action node's readers of Connection ID and Output. */
const itemContext = (poll: IPollFunctions): IExecuteFunctions =>
	({
		getNode: () => poll.getNode(),
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			poll.getNodeParameter(name, fallback),
	}) as unknown as IExecuteFunctions;

/**
 * The watched resource and the event, as the editor set them, and `of`: the entity, the event and
 * where requests go, as the state remembers them (another setting starts over); no secret in it.
 */
async function settingOf(
	poll: IPollFunctions,
	connection: Connection,
): Promise<{ resource: ListedResource; event: ChangeEvent; of: string }> {
	const value = poll.getNodeParameter('resource', 'person') as string;
	const resource = WATCHED.find((candidate) => candidate.value === value);
	if (!resource) throw new NodeOperationError(poll.getNode(), `Entity: unknown value "${value}"`);
	const event = poll.getNodeParameter('event', 'newOrUpdated');
	if (event !== 'new' && event !== 'newOrUpdated')
		throw new NodeOperationError(poll.getNode(), 'Event: must be New or New or Updated');
	const credentials = await poll.getCredentials(CREDENTIAL_TYPE);
	const override = connection.credentialId?.trim() ?? '';
	const connectionId = override !== '' ? override : String(credentials.credentialId ?? '').trim();
	const host = hostBaseUrl(credentials, resource.host);
	const of = JSON.stringify([value, event, connectionId, 'base' in host ? host.base : '']);
	return { resource, event, of };
}

/** Batch by batch, each page handed on as it arrives: memory stays flat whatever the list's size. */
async function readList(
	service: ServiceContext,
	{ host, path, listKey }: ListedResource,
	connection: Connection,
	run: ServiceRun,
	onRecords: (records: IDataObject[]) => void,
): Promise<void> {
	const request = { method: 'GET', host, path, connection } as const;
	const list = { request, pageSize: MAX_PAGE_SIZE, maxRecords: BATCH_RECORDS, recordsKey: listKey };
	let cursor: string | undefined = '';
	while (cursor !== undefined) {
		const page: PageRequest = { ...list, batch: { cursor, field: 'The poll' } };
		({ nextCursor: cursor } = await serviceRequestPages.call(service, 0, page, run, onRecords));
	}
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
		const service = this as unknown as ServiceContext;
		const item = itemContext(this);
		const connection = connectionOf(item, 0);
		const { resource, event, of } = await settingOf(this, connection);
		const choice = readOutput(item, 0, this.getNodeParameter('simplify', true) !== false);
		const manual = this.getMode() === 'manual';
		const startedAt = Date.now();
		const latest = startedAt + MAX_AHEAD_MS;
		// A manual run reads and saves no state; the active workflow's state is the node's static data.
		const before = manual ? undefined : stateFor(this.getWorkflowStaticData('node')[STATE_KEY], of);
		const reading = new PollReading(before, of, event, latest);
		const timeFor = (record: IDataObject) => timeOf(record, event, latest) ?? -Infinity;
		const fired: IDataObject[] = [];
		const run = newRun(DEFAULT_SETTINGS);
		try {
			await readList(service, resource, connection, run, (records) => {
				for (const record of records) {
					if (!isJsonObject(record)) continue;
					if (manual) {
						// The latest few by the event's time (records without one after them).
						fired.push(record);
						fired.sort((a, b) => timeFor(b) - timeFor(a));
						fired.splice(SAMPLE_SIZE);
					} else if (reading.fires(record)) fired.push(record);
				}
			});
		} catch (failure) {
			// Every error leaves redacted: the service's words may echo a secret.
			const error =
				failure instanceof NodeApiError || failure instanceof NodeOperationError
					? failure
					: new NodeOperationError(this.getNode(), failure as Error);
			await redactRunError(service, run, 0, error);
			throw error;
		}
		if (reading.unreadableIds > 0)
			this.logger.warn(
				`Integration Service Changes Trigger: ${reading.unreadableIds} ${resource.label} records skipped, their numeric ID past 2^53 (or not whole) cannot be read exactly`,
			);
		// Saved only now, the whole list read: a poll that failed leaves the state as it was. Nor saved
		// when another poll saved since this one started (it covered the same ground), or when the list
		// came back empty while the state holds records (a glitch).
		if (!manual) {
			const staticData = this.getWorkflowStaticData('node');
			if (stateFor(staticData[STATE_KEY], of)?.gen !== before?.gen) return null;
			if (reading.listed === 0 && (before?.recent.length || before?.known.length)) return null;
			const now = Date.now();
			staticData[STATE_KEY] = reading.next(now - startedAt, now) as unknown as IDataObject;
		}
		if (fired.length === 0) return null;
		const shaped = fired.map((record) => shapeRecord(record, choice));
		if (this.getNodeParameter('items', 'eachRecord') === 'perPoll')
			return [[{ json: { records: shaped, count: shaped.length } }]];
		return [shaped.map((json) => ({ json }))];
	}
}
