// Drop a level's vector index (model switch with --reembed).
DROP INDEX vector___LABEL__ IF EXISTS
