# The Bedrock Knowledge Base over the fact documents, with S3 Vectors as its vector store.
# Its embedding model must be the application's (vectors of different models are never
# compared): set the memory URL's kb_embedding_model to the same model name.

resource "aws_s3vectors_vector_bucket" "kb" {
  vector_bucket_name = "${var.table_prefix}-kb-vectors"

  encryption_configuration {
    sse_type    = "aws:kms"
    kms_key_arn = aws_kms_key.memory.arn
  }
}

resource "aws_s3vectors_index" "kb" {
  index_name         = "${var.table_prefix}-facts"
  vector_bucket_name = aws_s3vectors_vector_bucket.kb.vector_bucket_name
  data_type          = "float32"
  dimension          = var.embedding_dimensions
  distance_metric    = "cosine"

  # Bedrock's own chunk text and metadata blob are large and never filtered on; keeping them
  # non-filterable leaves the filterable budget to tenant / domain / fact_id
  metadata_configuration {
    non_filterable_metadata_keys = ["AMAZON_BEDROCK_TEXT", "AMAZON_BEDROCK_METADATA"]
  }
}

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
    resources = [aws_s3vectors_index.kb.index_arn]
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

resource "aws_bedrockagent_knowledge_base" "facts" {
  name     = "${var.table_prefix}-facts"
  role_arn = aws_iam_role.kb.arn

  knowledge_base_configuration {
    type = "VECTOR"
    vector_knowledge_base_configuration {
      embedding_model_arn = local.embedding_model_arn
      embedding_model_configuration {
        bedrock_embedding_model_configuration {
          dimensions          = var.embedding_dimensions
          embedding_data_type = "FLOAT32"
        }
      }
    }
  }

  storage_configuration {
    type = "S3_VECTORS"
    s3_vectors_configuration {
      index_arn = aws_s3vectors_index.kb.index_arn
    }
  }

  depends_on = [aws_iam_role_policy.kb]
}

resource "aws_bedrockagent_data_source" "facts" {
  name                 = "${var.table_prefix}-fact-documents"
  knowledge_base_id    = aws_bedrockagent_knowledge_base.facts.id
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
