import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

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

/** A resource's Operation option. */
export const operationProperty = (
	resource: ResourceSpec,
	options: INodePropertyOptions[],
	preselected: string,
): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource.value] } },
	options,
	default: preselected,
});

/** The Operation option of a hand-written resource (the first preselected), and its properties after it. */
export function handWritten(
	resource: ResourceSpec,
	options: Array<{ name: string; value: string; description: string; action: string }>,
	operations: Record<string, OperationModule>,
): ResourceModule {
	const operation = operationProperty(resource, options, options[0].value);
	return {
		description: [operation, ...options.flatMap((option) => operations[option.value].description)],
		operations,
	};
}
