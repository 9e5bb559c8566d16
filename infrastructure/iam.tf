# Tenant roles: one per tenant, assumed by the application when it serves that tenant. Each can
# touch only its own partitions (dynamodb:LeadingKeys = "<tenant>" or "<tenant>/*"; ids cannot
# contain '/', so tenant "a" never matches tenant "ab"), its own S3 prefix and its own S3 Vectors
# indexes (named after a hash of the tenant, vectors.tf). No Scan is
# granted: a Scan carries no leading key and would escape the condition.
#
# Known limit: Bedrock `Retrieve` has no per-tenant condition key. A tenant role may call it on
# the shared Knowledge Base, and isolation there rests on the tenant filter the backend always
# sets and re-checks. Where that is not enough, deploy one Knowledge Base per tenant.

data "aws_iam_policy_document" "tenant_assume" {
  statement {
    actions = ["sts:AssumeRole", "sts:TagSession"]
    principals {
      type        = "AWS"
      identifiers = length(var.tenant_role_trusted_principals) > 0 ? var.tenant_role_trusted_principals : ["arn:${data.aws_partition.current.partition}:iam::${data.aws_caller_identity.current.account_id}:root"]
    }
  }
}

data "aws_iam_policy_document" "tenant" {
  for_each = toset(var.tenants)

  statement {
    sid = "OwnPartitionsOnly"
    actions = [
      "dynamodb:GetItem",
      "dynamodb:BatchGetItem",
      "dynamodb:Query",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
      "dynamodb:ConditionCheckItem",
    ]
    resources = local.table_and_index_arns
    condition {
      test     = "ForAllValues:StringLike"
      variable = "dynamodb:LeadingKeys"
      values   = [each.value, "${each.value}/*"]
    }
  }

  statement {
    sid       = "SeeTheTables"
    actions   = ["dynamodb:DescribeTable"]
    resources = local.table_arns
  }

  statement {
    sid       = "OwnFactDocumentsOnly"
    actions   = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"]
    resources = ["${aws_s3_bucket.facts.arn}/${var.facts_prefix}/${each.value}/*"]
  }

  statement {
    sid = "OwnVectorIndexesOnly"
    actions = [
      "s3vectors:CreateIndex",
      "s3vectors:GetIndex",
      "s3vectors:DeleteIndex",
      "s3vectors:PutVectors",
      "s3vectors:GetVectors",
      "s3vectors:DeleteVectors",
      "s3vectors:QueryVectors",
    ]
    # the tenant part of every index name the application derives (vectors.tf), for each kind
    resources = [for kind in ["ep", "fa"] : "${local.vector_index_arn}/${local.vector_index_slug}-${kind}-${substr(sha256(each.value), 0, 12)}-*"]
  }

  statement {
    # ListIndexes is granted on the bucket (it has no per-index resource); names carry only a
    # hash of each tenant, and every read or write of vectors stays confined above
    sid       = "FindOwnVectorIndexes"
    actions   = ["s3vectors:ListIndexes", "s3vectors:GetVectorBucket"]
    resources = [module.s3_vectors.memory_bucket_arn]
  }

  statement {
    sid       = "SearchAndSyncTheKnowledgeBase"
    actions   = ["bedrock:Retrieve", "bedrock:StartIngestionJob", "bedrock:GetIngestionJob"]
    resources = [module.s3_vectors.knowledge_base_arn]
  }

  statement {
    sid       = "InvokeTheConfiguredModels"
    actions   = ["bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"]
    resources = concat([local.embedding_model_arn], local.chat_model_arns)
  }

  statement {
    sid       = "ScrubPersonalData"
    actions   = ["comprehend:DetectPiiEntities"]
    resources = ["*"] # Comprehend's real-time detection APIs take no resource ARN
  }

  statement {
    sid       = "UseTheMemoryKeyThroughItsServices"
    actions   = ["kms:Decrypt", "kms:Encrypt", "kms:GenerateDataKey"]
    resources = [aws_kms_key.memory.arn]
    condition {
      test     = "StringEquals"
      variable = "kms:ViaService"
      values   = ["dynamodb.${var.region}.amazonaws.com", "s3.${var.region}.amazonaws.com", "s3vectors.${var.region}.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "tenant" {
  for_each           = toset(var.tenants)
  name               = "${var.table_prefix}-tenant-${each.value}"
  assume_role_policy = data.aws_iam_policy_document.tenant_assume.json
}

resource "aws_iam_role_policy" "tenant" {
  for_each = toset(var.tenants)
  name     = "memory-of-${each.value}"
  role     = aws_iam_role.tenant[each.value].id
  policy   = data.aws_iam_policy_document.tenant[each.value].json
}
