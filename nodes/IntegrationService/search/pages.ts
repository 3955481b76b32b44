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
		// A total counts only when the list is paged by offsets: a service cursor or link does not shift.
		const { total: announced, next, nextLink } = (page._metadata ?? {}) as IDataObject;
		total = typeof announced === 'number' && !next && !nextLink ? announced : undefined;
	};
	const { nextCursor } = await serviceRequestPages.call(ctx, itemIndex, list, run, onPage);
	return { pages, nextCursor, total };
}
