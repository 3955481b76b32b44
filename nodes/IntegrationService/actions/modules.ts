import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ResourceSpec } from '../../shared/catalogue';
import type { ServiceRun } from '../transport';

/** What every operation gives: its properties and what it does for one item. */
export interface OperationModule {
	description: INodeProperties[];
	/** Returns the records for one input item; the router pairs them with that item. */
	execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun): Promise<IDataObject[]>;
}

/** What every resource gives: its properties (the Operation option first) and its operations by value. */
export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}

/** An operation of a resource: its module and its option's texts. */
export interface EntityOperation {
	module(resource: ResourceSpec): OperationModule;
	option(resource: ResourceSpec): { name: string; description: string; action: string };
}
