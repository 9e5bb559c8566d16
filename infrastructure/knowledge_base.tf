# The Bedrock Knowledge Base over the fact documents, with S3 Vectors as its vector store.
# Its embedding model must be the application's (vectors of different models are never
# compared): set the memory URL's kb_embedding_model to the same model name.
# The Knowledge Base itself (its S3_VECTORS storage needs the AWS provider >= 6.28) is created in
# modules/s3_vectors with its vector index; its role, data source and sync stay here.

data "aws_iam_policy_document" "kb_assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["bedrock.amazonaws.com"]
    }
    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

resource "aws_iam_role" "kb" {
  name               = "${var.table_prefix}-knowledge-base"
  assume_role_policy = data.aws_iam_policy_document.kb_assume.json
}

data "aws_iam_policy_document" "kb" {
  statement {
    sid       = "EmbedWithTheConfiguredModel"
    actions   = ["bedrock:InvokeModel"]
    resources = [local.embedding_model_arn]
  }
  statement {
    sid       = "ListFactDocuments"
    actions   = ["s3:ListBucket"]
    resources = [aws_s3_bucket.facts.arn]
    condition {
      test     = "StringLike"
      variable = "s3:prefix"
      values   = ["${var.facts_prefix}/*"]
    }
  }
  statement {
    sid       = "ReadFactDocuments"
    actions   = ["s3:GetObject"]
    resources = ["${aws_s3_bucket.facts.arn}/${var.facts_prefix}/*"]
  }
  statement {
    sid = "UseTheVectorIndex"
    actions = [
      "s3vectors:GetIndex",
      "s3vectors:PutVectors",
      "s3vectors:GetVectors",
      "s3vectors:DeleteVectors",
      "s3vectors:QueryVectors",
    ]
    resources = [module.s3_vectors.kb_index_arn]
  }
  statement {
    sid       = "DecryptDocumentsAndVectors"
    actions   = ["kms:Decrypt", "kms:GenerateDataKey"]
    resources = [aws_kms_key.memory.arn]
  }
}

resource "aws_iam_role_policy" "kb" {
  name   = "knowledge-base-access"
  role   = aws_iam_role.kb.id
  policy = data.aws_iam_policy_document.kb.json
}

resource "aws_bedrockagent_data_source" "facts" {
  name                 = "${var.table_prefix}-fact-documents"
  knowledge_base_id    = module.s3_vectors.knowledge_base_id
  data_deletion_policy = "DELETE" # a fact deleted from S3 leaves the index at the next sync

  data_source_configuration {
    type = "S3"
    s3_configuration {
      bucket_arn         = aws_s3_bucket.facts.arn
      inclusion_prefixes = ["${var.facts_prefix}/"]
    }
  }

  server_side_encryption_configuration {
    kms_key_arn = aws_kms_key.memory.arn
  }

  # a fact is one short document: one chunk each keeps a fact whole in every result
  vector_ingestion_configuration {
    chunking_configuration {
      chunking_strategy = "NONE"
    }
  }
}

locals {
  embedding_model_arn = "arn:${data.aws_partition.current.partition}:bedrock:${var.region}::foundation-model/${var.embedding_model_id}"
  chat_model_arns     = [for id in var.chat_model_ids : "arn:${data.aws_partition.current.partition}:bedrock:${var.region}::foundation-model/${id}"]
  table_arns = [
    aws_dynamodb_table.episodes.arn,
    aws_dynamodb_table.facts.arn,
    aws_dynamodb_table.procedures.arn,
    aws_dynamodb_table.confirmations.arn,
    aws_dynamodb_table.telemetry.arn,
  ]
  table_and_index_arns = concat(local.table_arns, [for arn in local.table_arns : "${arn}/index/*"])
}
