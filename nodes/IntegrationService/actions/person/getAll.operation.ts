import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { toWholeNumber } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { MAX_PAGE_SIZE, serviceRequestPages } from '../../transport';
import {
	batchItem,
	connectionOf,
	cursorProperty,
	limitProperty,
	pageAtATimeProperty,
	PAGING_PARAMETERS,
	queryParametersProperty,
	readListParameters,
	readQueryParameters,
	returnAllProperty,
	withoutOriginal,
} from '../common.descriptions';
import { shownFor } from '../node.type';

const properties: INodeProperties[] = [
	returnAllProperty,
	limitProperty,
	pageAtATimeProperty,
	cursorProperty,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		hint: 'On: each person without its bulky "original" record (the data as held in the external system). Off: each person exactly as the service returns it.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
				default: MAX_PAGE_SIZE,
				description:
					'How many people to ask for per request (1 to 100). Return All and a Limit larger than this read several pages; the output is the same, only the number of requests changes.',
			},
			{
				...queryParametersProperty,
				description:
					'Extra filters sent as query parameters on the list request, each name and value passed through unchanged. Which filters the connected CRM understands is not documented. The names limit, offset and next are set by paging and cannot be used; each name may appear once.',
			},
		],
	},
];

export const description = updateDisplayOptions(shownFor('person', 'getAll'), properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const { limit, simplify, batch } = readListParameters(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const pageSize =
		options.pageSize === undefined || options.pageSize === ''
			? MAX_PAGE_SIZE
			: toWholeNumber(this, itemIndex, 'Options › Page Size', options.pageSize, 1, MAX_PAGE_SIZE);
	const qs = readQueryParameters(
		this,
		itemIndex,
		'Options › Query Parameters',
		options.queryParameters,
		PAGING_PARAMETERS,
	);
	const connection = connectionOf(this, itemIndex);

	const people: IDataObject[] = [];
	const { nextCursor } = await serviceRequestPages.call(
		this,
		itemIndex,
		{
			request: { method: 'GET', host: 'crm', path: ['people'], qs, connection },
			maxRecords: limit,
			pageSize,
			recordsKey: 'people',
			batch,
		},
		run,
		(records) => {
			for (const person of records) {
				if (person === null || typeof person !== 'object' || Array.isArray(person)) {
					const message = "The service's answer lists a person that is not an object";
					throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
				}
				people.push(simplify ? withoutOriginal(person) : person);
			}
		},
	);
	return batch ? [batchItem('people', people, nextCursor)] : people;
}
