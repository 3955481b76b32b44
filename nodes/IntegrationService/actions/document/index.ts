import type { INodeProperties } from 'n8n-workflow';

import { getOperation } from '../generic/get';
import { getAllOperation } from '../generic/getAll';
import { catalogueResource } from '../generic/entity';
import { publishedDelete } from '../published/write';

import type { OperationModule } from '../node.type';

import * as create from './create.operation';

/** Published endpoints (issue 30): get, list and delete a document. */
const resource = catalogueResource('document');
const published = {
	delete: publishedDelete(resource),
	get: getOperation(resource),
	getAll: getAllOperation(resource),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Add a document to a loan file in the connected loan origination system',
				action: 'Create a document',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a document of the connected loan origination system',
				action: 'Delete a document',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one document of the connected loan origination system by its ID',
				action: 'Get a document',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List documents of the connected loan origination system, page by page',
				action: 'Get many documents',
			},
		],
		default: 'create',
	},
	...create.description,
	...published.delete.description,
	...published.get.description,
	...published.getAll.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { create, ...published };
