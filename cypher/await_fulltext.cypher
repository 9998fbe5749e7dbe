// Wait until eventually consistent full-text indexes have applied all updates.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
