import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { inputError, toBoolean, toWholeNumber } from '../../helpers/validation';
import { credentialIdOverrideFor } from '../common.descriptions';
import type { ServiceRun } from '../../transport';
import { serviceRequestPages } from '../../transport';

/** decisions.md: services of this kind cap a page at 100 people. */
const MAX_PAGE_SIZE = 100;

/** Query parameters that paging sets itself; a user value would break it. */
const PAGING_PARAMETERS = ['limit', 'offset', 'next'];

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
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
				displayName: 'Query Parameters',
				name: 'queryParameters',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Query Parameter',
				default: {},
				description:
					'Extra filters sent as query parameters on the list request, each name and value passed through unchanged. Which filters the connected CRM understands is not documented. The names limit, offset and next are set by paging and cannot be used; each name may appear once.',
				options: [
					{
						displayName: 'Parameter',
						name: 'parameters',
						values: [
							{
								displayName: 'Name',
								name: 'name',
								type: 'string',
								default: '',
								placeholder: 'e.g. stage',
								description: 'Name of the query parameter',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								placeholder: 'e.g. Lead',
								description: 'Value of the query parameter, sent as text',
							},
						],
					},
				],
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['person'], operation: ['getAll'] } },
	properties,
);

/** The Query Parameters option as a query object; names are checked before anything is sent. */
function toQuery(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): IDataObject {
	const field = 'Options › Query Parameters';
	if (raw === undefined || raw === null || raw === '') return {};
	const entries = Array.isArray(raw) ? raw : (raw as IDataObject).parameters ?? [];
	if (!Array.isArray(entries)) {
		throw inputError(ctx, itemIndex, field, 'must be a list of {name, value} entries');
	}
	const query: IDataObject = {};
	entries.forEach((entry: unknown, position) => {
		const where = `${field} › entry ${position + 1}`;
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			throw inputError(ctx, itemIndex, where, 'must be an object with a name and a value');
		}
		const { name: rawName, value } = entry as IDataObject;
		const name = typeof rawName === 'string' ? rawName.trim() : '';
		if (name === '') {
			throw inputError(ctx, itemIndex, where, 'has no name');
		}
		if (PAGING_PARAMETERS.includes(name.toLowerCase())) {
			throw inputError(
				ctx,
				itemIndex,
				`${field} › ${name}`,
				`cannot be set here: paging sets ${PAGING_PARAMETERS.join(', ')} itself (use Return All, Limit and Page Size instead)`,
			);
		}
		if (Object.prototype.hasOwnProperty.call(query, name)) {
			throw inputError(ctx, itemIndex, `${field} › ${name}`, 'appears more than once');
		}
		if (value === undefined || value === null || value === '') {
			throw inputError(ctx, itemIndex, `${field} › ${name}`, 'has no value');
		}
		if (typeof value === 'object') {
			throw inputError(ctx, itemIndex, `${field} › ${name}`, 'must be text, not an object or a list');
		}
		query[name] = String(value);
	});
	return query;
}

/** A person without its `original` record; the object itself when it has none (no copy needed). */
function simplified(person: IDataObject): IDataObject {
	if (!Object.prototype.hasOwnProperty.call(person, 'original')) return person;
	const result: IDataObject = {};
	for (const key of Object.keys(person)) {
		if (key !== 'original') result[key] = person[key];
	}
	return result;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const returnAll = toBoolean(this, itemIndex, 'Return All', this.getNodeParameter('returnAll', itemIndex, false));
	const limit = returnAll
		? undefined
		: toWholeNumber(this, itemIndex, 'Limit', this.getNodeParameter('limit', itemIndex, 50), 1);
	const simplify = toBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const pageSize =
		options.pageSize === undefined || options.pageSize === ''
			? MAX_PAGE_SIZE
			: toWholeNumber(this, itemIndex, 'Options › Page Size', options.pageSize, 1, MAX_PAGE_SIZE);
	const qs = toQuery(this, itemIndex, options.queryParameters);
	const credentialId = credentialIdOverrideFor(this, itemIndex);

	const people: IDataObject[] = [];
	await serviceRequestPages.call(
		this,
		itemIndex,
		{
			request: { method: 'GET', host: 'crm', path: ['people'], qs, credentialId },
			maxRecords: limit,
			pageSize,
			recordsKey: 'people',
		},
		run,
		(records) => {
			for (const person of records) {
				if (person === null || typeof person !== 'object' || Array.isArray(person)) {
					const message = "The service's answer lists a person that is not an object";
					throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
				}
				people.push(simplify ? simplified(person) : person);
			}
		},
	);
	return people;
}
