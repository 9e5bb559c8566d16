# The four memory tables. Names, keys, indexes and the TTL attribute must match
# memory/backends/aws/schema.py: tests/aws/test_aws_terraform.py checks that they do.
# Every partition key starts with the tenant ("<tenant>/<agent>" or "<tenant>"), which is what
# the tenant roles' dynamodb:LeadingKeys condition (iam.tf) confines.

resource "aws_dynamodb_table" "episodes" {
  name                        = "${var.table_prefix}-episodes"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "pk" # "<tenant>/<agent>"
  range_key                   = "sk" # run id
  deletion_protection_enabled = true

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }
  attribute {
    name = "created_at"
    type = "S"
  }

  # newest-first listing and the decay job's "FAILED older than 7 days"
  global_secondary_index {
    name            = "by_created_at"
    hash_key        = "pk"
    range_key       = "created_at"
    projection_type = "ALL"
  }

  # DynamoDB deletes expired episodes within days; the code also filters them on every read
  ttl {
    attribute_name = "expires_at"
    enabled        = true
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled     = true
    kms_key_arn = aws_kms_key.memory.arn
  }
}

resource "aws_dynamodb_table" "facts" {
  name                        = "${var.table_prefix}-facts"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "pk" # "<tenant>"
  range_key                   = "sk" # "FACT#<fact id>" | "INGEST#STATE"
  deletion_protection_enabled = true

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }
  attribute {
    name = "pending_since"
    type = "S"
  }

  # sparse: only facts the Knowledge Base has not ingested yet (the fast path); an LSI so the
  # fast path can be read strongly consistent right after a write
  local_secondary_index {
    name            = "pending_ingestion"
    range_key       = "pending_since"
    projection_type = "ALL"
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled     = true
    kms_key_arn = aws_kms_key.memory.arn
  }
}

resource "aws_dynamodb_table" "procedures" {
  name                        = "${var.table_prefix}-procedures"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "pk" # "<tenant>/<agent>"
  range_key                   = "sk" # "PROC#<procedure id>" | "APPLIED#[procedure, run]" (a counted use)
  deletion_protection_enabled = true

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }
  attribute {
    name = "task_status"
    type = "S"
  }

  # "<task type>#<status>": the validated procedures of a task type in one consistent Query
  local_secondary_index {
    name            = "by_task_status"
    range_key       = "task_status"
    projection_type = "ALL"
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled     = true
    kms_key_arn = aws_kms_key.memory.arn
  }
}

resource "aws_dynamodb_table" "confirmations" {
  name                        = "${var.table_prefix}-confirmations"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "pk" # "<tenant>"
  range_key                   = "sk" # normalised fact key
  deletion_protection_enabled = true

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled     = true
    kms_key_arn = aws_kms_key.memory.arn
  }
}

# Retrieval telemetry (memory.backends.aws.telemetry): what each tier returned to each run.
# TTL expires events after the memory URL's telemetry_days (default 180); decay prunes the rest.
resource "aws_dynamodb_table" "telemetry" {
  name                        = "${var.table_prefix}-telemetry"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "pk" # "<tenant>/<agent>"
  range_key                   = "sk" # "<ISO time>#<run id>#<tier>"
  deletion_protection_enabled = true

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }

  ttl {
    attribute_name = "expires_at"
    enabled        = true
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled     = true
    kms_key_arn = aws_kms_key.memory.arn
  }
}
