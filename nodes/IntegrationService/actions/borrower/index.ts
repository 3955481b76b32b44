import type { INodeProperties } from 'n8n-workflow';

import { getOperation } from '../generic/get';
import { getAllOperation } from '../generic/getAll';
import { catalogueResource } from '../generic/entity';
import { publishedDelete } from '../published/write';

import type { OperationModule } from '../node.type';

import * as update from './update.operation';

/** Published endpoints (issue 30): get, list and delete a borrower. */
const resource = catalogueResource('borrower');
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
		displayOptions: { show: { resource: ['borrower'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a borrower of the connected loan origination system',
				action: 'Delete a borrower',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one borrower of the connected loan origination system by its ID',
				action: 'Get a borrower',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List borrowers of the connected loan origination system, page by page',
				action: 'Get many borrowers',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change fields of a borrower in the connected loan origination system',
				action: 'Update a borrower',
			},
		],
		default: 'update',
	},
	...update.description,
	...published.delete.description,
	...published.get.description,
	...published.getAll.description,
];

/** The router's table for this resource: every Operation option above, by its value. */
export const operations: Record<string, OperationModule> = { ...published, update };
