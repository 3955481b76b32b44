import type { IDataObject, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { isJsonObject } from '../../../shared/service';
import { toWholeNumber } from '../../helpers/kinds/number';
import { filtersProperty, readFilters, recordFilter } from '../../search/filters';
import { MAX_PAGE_SIZE } from '../../transport';
import { listProperties, PAGING_PARAMETERS, queryParametersProperty } from '../common.descriptions';
import { listBody, readQueryParameters, toolCursorProperty, withoutOriginal } from '../list';
import { entityRequest } from '../request';
import { FROM_VERSION_2, ONLY_VERSION_1, optionsCollection, withSettings } from '../settings';
import type { OperationModule } from '../modules';
import { nounsOf, shownFor, systemOf } from './texts';

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

function simpleNames(resource: ResourceSpec): string {
	const names = (resource.simple ?? []).map((key) =>
		typeof key === 'string' ? key : `${key.name} (the primary of ${key.primaryOf})`,
	);
	return names.length === 0 ? 'every field but "original"' : names.join(', ');
}

/** Version 1's properties; version 2 folds the node-wide settings into their Options (`withSettings`). */
function propertiesOf(resource: ResourceSpec): INodeProperties[] {
	const { one, many } = nounsOf(resource);
	return [
		...listProperties,
		toolCursorProperty,
		filtersProperty(resource),
		{
			...simplifyProperty,
			hint: `On: each ${one} without its bulky "original" record (the data as held in the external system). Off: each ${one} exactly as the service returns it.`,
			displayOptions: { show: ONLY_VERSION_1 },
		},
		{
			...simplifyProperty,
			hint: `On: the fields of each ${one} a user reads: ${simpleNames(resource)}. Off: each ${one} exactly as the service returns it.`,
			displayOptions: { show: FROM_VERSION_2 },
		},
		optionsCollection([
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
				default: MAX_PAGE_SIZE,
				description: `How many ${many} to ask for per request (1 to 100). Return All and a Limit larger than this read several pages; the output is the same, only the number of requests changes.`,
			},
			{
				...queryParametersProperty,
				description: `Extra filters sent as query parameters on the list request, each name and value passed through unchanged. Which filters the ${systemOf(resource)} understands is not documented. The names limit, offset and next are set by paging and cannot be used; each name may appear once.`,
			},
		]),
	];
}

function optInHint(resource: ResourceSpec): string | undefined {
	if (resource.syncOptIn === undefined) return undefined;
	const { many } = nounsOf(resource);
	return `No ${many} came back. The service lists ${many} only for a connection that syncs them: if this connection should have some, turn on entitiesToSync.${resource.syncOptIn} for it (Credential › Update, Entities to Sync).`;
}

export function getAllOperation(resource: ResourceSpec): OperationModule {
	const { one } = nounsOf(resource);
	const listKey = resource.listKey ?? resource.path[resource.path.length - 1];
	return {
		description: updateDisplayOptions(
			shownFor(resource, 'getAll'),
			withSettings(propertiesOf(resource)),
		),
		async execute(itemIndex, run) {
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const size = options.pageSize;
			const pageSize =
				size === undefined || size === ''
					? MAX_PAGE_SIZE
					: toWholeNumber(this, itemIndex, 'Options › Page Size', size, 1, MAX_PAGE_SIZE);
			const query = options.queryParameters;
			const label = 'Options › Query Parameters';
			const qs = readQueryParameters(this, itemIndex, label, query, PAGING_PARAMETERS);
			const filters = readFilters(this.getNodeParameter('filters', itemIndex, {}));
			if ('problem' in filters)
				throw new NodeOperationError(this.getNode(), filters.problem, { itemIndex });
			const filtered = filters.conditions.length > 0;
			const meetsAll = recordFilter(filters.conditions);
			const request = entityRequest(this, itemIndex, resource, { method: 'GET', qs });
			return await listBody(this, itemIndex, run, {
				page: { request, pageSize, recordsKey: listKey },
				batchKey: listKey,
				// With Filters, an empty answer says nothing of the connection's opt-in.
				emptyHint: filtered ? undefined : optInHint(resource),
				// A record that is no object is kept, for the list's own check to name it.
				keep: filtered ? (record) => !isJsonObject(record) || meetsAll(record) : undefined,
				simple: resource.simple,
				record: (record, simplify) => {
					if (!isJsonObject(record)) {
						const message = `The service's answer lists a ${one} that is not an object`;
						throw new NodeApiError(this.getNode(), { message } as JsonObject, {
							message,
							itemIndex,
						});
					}
					return simplify ? withoutOriginal(record) : record;
				},
			});
		},
	};
}
