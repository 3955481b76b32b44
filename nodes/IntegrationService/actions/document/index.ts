import { withOwnOperation } from '../published/withOwn';
import * as create from './create.operation';

/** Create (the specification's), and the published Get, Get Many, Update and Delete of a document. */
export const { description, operations } = withOwnOperation(
	'document',
	{
		option: {
			name: 'Create',
			value: 'create',
			description: 'Add a document to a loan file in the connected loan origination system',
			action: 'Create a document',
		},
		module: create,
	},
	['update'],
);
