-- The table of mysqlReplayStore, as the store creates it (table `plantstore_dpop_replay`).
CREATE TABLE IF NOT EXISTS `plantstore_dpop_replay` (
  proof_key VARBINARY(255) NOT NULL PRIMARY KEY,
  expires_at BIGINT NOT NULL,
  KEY expires_at (expires_at)
) ENGINE=InnoDB;
