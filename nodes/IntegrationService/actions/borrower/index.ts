import { withOwnOperation } from '../published/withOwn';
import * as update from './update.operation';

/** Update (the specification's), and the published Create, Get, Get Many and Delete of a borrower. */
export const { description, operations } = withOwnOperation(
	'borrower',
	{
		option: {
			name: 'Update',
			value: 'update',
			description: 'Change fields of a borrower in the connected loan origination system',
			action: 'Update a borrower',
		},
		module: update,
	},
	['create'],
);
