# One customer-managed key encrypts every store of memory: tables, bucket, vector index, the
# decay job's environment, logs and dead-letter queue. Rotation is on; only this account's IAM
# (and the services below, through the account) may use it.

locals {
  account_root = "arn:${data.aws_partition.current.partition}:iam::${data.aws_caller_identity.current.account_id}:root"
}

resource "aws_kms_key" "memory" {
  description             = "contract-memory-agent ${var.table_prefix}: memory tables, fact bucket, vectors, decay job"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid       = "AccountAdministersTheKey"
        Effect    = "Allow"
        Principal = { AWS = local.account_root }
        Action    = "kms:*"
        Resource  = "*" # in a key policy "*" means this key
      },
      {
        # S3 Vectors maintains KMS-encrypted indexes in the background under its own principal;
        # without this grant it refuses the writes ("Insufficient access to perform asynchronous
        # indexing"). Confined to this account's vector buckets.
        Sid       = "S3VectorsIndexesTheVectorBuckets"
        Effect    = "Allow"
        Principal = { Service = "indexing.s3vectors.amazonaws.com" }
        Action    = ["kms:Decrypt"]
        Resource  = "*"
        Condition = {
          StringEquals = { "aws:SourceAccount" = data.aws_caller_identity.current.account_id }
          ArnLike      = { "aws:SourceArn" = "arn:${data.aws_partition.current.partition}:s3vectors:${var.region}:${data.aws_caller_identity.current.account_id}:bucket/*" }
        }
      },
      {
        Sid       = "CloudWatchLogsUseTheKeyForTheDecayLogs"
        Effect    = "Allow"
        Principal = { Service = "logs.${var.region}.amazonaws.com" }
        Action    = ["kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey"]
        Resource  = "*"
        Condition = {
          ArnLike = {
            "kms:EncryptionContext:aws:logs:arn" = "arn:${data.aws_partition.current.partition}:logs:${var.region}:${data.aws_caller_identity.current.account_id}:log-group:/aws/lambda/${var.table_prefix}-*"
          }
        }
      },
    ]
  })
}

resource "aws_kms_alias" "memory" {
  name          = "alias/${var.table_prefix}-memory"
  target_key_id = aws_kms_key.memory.key_id
}
