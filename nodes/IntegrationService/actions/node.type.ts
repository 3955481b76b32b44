import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { ServiceRun } from '../transport';

/** Every resource and its operations: the option values, the router's keys and each operation's displayOptions. */
export interface ResourceOperations {
	authorizationLink: 'create';
	borrower: 'create' | 'update';
	credential: 'create' | 'update';
	customApiCall: 'send';
	document: 'create' | 'update';
	person: 'create' | 'getAll' | 'update';
	webhook: 'update';
}

export type Resource = keyof ResourceOperations;

/** What every `<resource>/<operation>.operation.ts` exports. */
export interface OperationModule {
	description: INodeProperties[];
	/** Returns the records for one input item; the router pairs them with that item. */
	execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun): Promise<IDataObject[]>;
}

/** Where an operation's own fields show: its resource and operation, checked against the list above. */
export function shownFor<R extends Resource>(
	resource: R,
	operation: ResourceOperations[R],
): IDisplayOptions {
	return { show: { resource: [resource], operation: [operation] } };
}
