import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ServiceRun } from '../transport';

/** What every operation module exports: its own parameters and how it runs for one input item. */
export interface OperationModule {
	description: INodeProperties[];
	/** Returns the records for one input item; the router pairs them with that item. */
	execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun): Promise<IDataObject[]>;
}
