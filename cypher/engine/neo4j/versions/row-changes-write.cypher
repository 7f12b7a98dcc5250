// Neo4j: part $part of $parts of what a refresh of $state changes at $version of its rows_version
// (row-changes-next.cypher): the credentials' ids and their search and brokerage rows as
// generation $g shows them, in the export files' dialect (src/graph/bulk-file.ts); null ids and
// rows when it changes too many (the state is read whole). Read once the publish marks it
// (row-changes-publish.cypher).
// :param state => 'FL'
// :param version => 3
// :param part => 0
// :param parts => 1
// :param g => 1
// :param ids => ['00000000-0000-4000-8000-000000000001']
// :param rows => ''
CREATE (:RowChanges {state: $state, version: $version, part: $part, parts: $parts, generation: $g, ids: $ids, rows: $rows})
