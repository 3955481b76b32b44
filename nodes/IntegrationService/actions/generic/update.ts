import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { connectionOf, readId } from '../parameters';
import { entityRequest } from './entity';

/**
 * What every Update shares: PUT {host}/api/{path}/{id} with the body `readBody` gives, the ID read
 * (and checked) first, the changed record as the one output item.
 */
export async function updateRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	resource: ResourceSpec,
	readBody: () => IDataObject,
): Promise<IDataObject[]> {
	if (!resource.id) throw new ApplicationError(`The catalogue gives ${resource.value} no ID`);
	const segment = readId(ctx, itemIndex, resource.id);
	const body = readBody();
	const request = entityRequest(resource, 'PUT', [segment], connectionOf(ctx, itemIndex), { body });
	return [await serviceRequest.call(ctx, itemIndex, request, run)];
}
