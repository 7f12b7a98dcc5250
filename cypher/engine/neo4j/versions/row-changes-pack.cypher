// Neo4j: the rows of $state's list at $version (row-changes-write.cypher, every part) packed as the
// search index reads them (src/search/search-index.ts, packSearchRows), kept on its part 0: a
// process one publish behind overlays them without indexing them itself (decision 0048).
// :param state => 'FL'
// :param version => 3
// :param g => 1
// :param packed => null
MATCH (x:RowChanges {state: $state, version: $version, part: 0}) WHERE x.generation = $g
SET x.packed = $packed
