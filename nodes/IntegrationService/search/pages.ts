import type { IDataObject } from 'n8n-workflow';

import type { PageRequest, ServiceContext, ServiceRun } from '../transport';
import { serviceRequestPages } from '../transport';

/** One step of a batched list: each page's records, where it goes on (none: it ended), the announced total. */
export async function readStep(
	ctx: ServiceContext,
	itemIndex: number,
	run: ServiceRun,
	list: PageRequest,
) {
	const pages: IDataObject[][] = [];
	let total: number | undefined;
	const onPage = (records: IDataObject[], page: IDataObject) => {
		pages.push(records);
		total = offsetTotal(page);
	};
	const { nextCursor } = await serviceRequestPages.call(ctx, itemIndex, list, run, onPage);
	return { pages, nextCursor, total };
}

/** A page's announced total when the list is paged by offsets; a service cursor or link does not shift. */
function offsetTotal(page: IDataObject): number | undefined {
	const meta = page._metadata;
	if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
	const { total, next, nextLink } = meta as IDataObject;
	return typeof total === 'number' && !next && !nextLink ? total : undefined;
}
