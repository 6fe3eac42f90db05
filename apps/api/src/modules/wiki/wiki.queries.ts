/** SQL of the wiki: the company's elements with folder, properties and contracts, in one statement. */
import { sql, type SQL } from 'drizzle-orm';
import { likeEscape, queryJsonList, type Queryable } from '../../platform/sql-json';

export interface RawWikiElement {
  id: number;
  name: string;
  wikiFolderId: number;
  folderName: string;
  properties: {
    id: number;
    typologyName: string;
    dataType: 'text' | 'number' | 'date' | 'bool' | 'url' | 'file';
    value: string | null;
    fileId: number | null;
    fileName: string | null;
  }[];
  contracts: { id: number; name: string }[];
}

export function listWikiElements(
  db: Queryable,
  s: { portalId: number; companyId: number; nameFilter: string | null },
): Promise<RawWikiElement[]> {
  const conds: SQL[] = [sql`we.portal_id = ${s.portalId} and we.company_id = ${s.companyId}`];
  if (s.nameFilter) conds.push(sql`we.name ilike ${`%${likeEscape(s.nameFilter)}%`}`);
  return queryJsonList<RawWikiElement>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', we.ext_id, 'name', we.name, 'wikiFolderId', wf.ext_id, 'folderName', wf.name,
        'properties', (select coalesce(json_agg(json_build_object(
            'id', wp.ext_id, 'typologyName', wp.typology_name, 'dataType', wp.data_type,
            'value', wp.value, 'fileId', pf.id, 'fileName', pf.name
          ) order by wp.position, wp.ext_id), '[]'::json)
          from wiki_properties wp left join files pf on pf.id = wp.file_id
          where wp.element_id = we.id),
        'contracts', (select coalesce(json_agg(json_build_object('id', sc.ext_id, 'name', sc.name)
            order by sc.name, sc.ext_id), '[]'::json)
          from service_contract_wiki_elements sw join service_contracts sc on sc.id = sw.service_contract_id
          where sw.wiki_element_id = we.id and sc.company_id = we.company_id)
      ) order by lower(wf.name), wf.ext_id, lower(we.name), we.ext_id), '[]'::json) as items
      from wiki_elements we join wiki_folders wf on wf.id = we.folder_id
      where ${sql.join(conds, sql` and `)}`,
  );
}
