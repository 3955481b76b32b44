import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ServiceRequest, ServiceRun } from '../transport';
import { serviceRequest } from '../transport';
import type { OperationModule } from './operation.types';

/**
 * An operation that sends one request per item and returns the record the service answers with: its
 * properties, shown for its resource and operation, and an execute in which `build` reads and checks
 * the whole item first, so that a bad item sends nothing.
 */
export function oneRequestOperation(
	shownFor: { resource: string; operation: string },
	properties: INodeProperties[],
	build: (ctx: IExecuteFunctions, itemIndex: number) => ServiceRequest,
): OperationModule {
	return {
		description: updateDisplayOptions(
			{ show: { resource: [shownFor.resource], operation: [shownFor.operation] } },
			properties,
		),
		async execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun): Promise<IDataObject[]> {
			const request = build(this, itemIndex);
			return [await serviceRequest.call(this, itemIndex, request, run)];
		},
	};
}
